/// What a member of a shared canvas may do: the owner shares and deletes it, editors arrange it,
/// viewers see it and its changes live.
public enum CanvasRole: String, Codable, Sendable, CaseIterable {
    case owner, editor, viewer

    /// Whether edits of this role are taken.
    public var mayEdit: Bool { self != .viewer }
}
