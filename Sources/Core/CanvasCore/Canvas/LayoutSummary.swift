/// A stored layout as a list shows it.
public struct LayoutSummary: Hashable, Sendable {
    public let name: String
    /// Nil for a layout on the server this machine has no copy of yet.
    public let paneCount: Int?
    /// Seconds since 1970 of the last save; nil for a preset never saved.
    public let updatedAt: Double?
    public let isPreset: Bool
    /// The preset a layout of the user's keeps the changes of (`default (changed)`, or a layout
    /// stored under the preset's own name before presets stayed presets).
    public let changedFrom: String?
    /// For a shared canvas's copy: which canvas, whose, and this user's role.
    public let sharing: Sharing?

    public struct Sharing: Hashable, Sendable {
        public let canvas: Int64
        public let owner: String
        public let role: CanvasRole

        public init(canvas: Int64, owner: String, role: CanvasRole) {
            self.canvas = canvas
            self.owner = owner
            self.role = role
        }
    }

    public init(name: String, paneCount: Int?, updatedAt: Double?, isPreset: Bool, changedFrom: String? = nil, sharing: Sharing? = nil) {
        self.name = name
        self.paneCount = paneCount
        self.updatedAt = updatedAt
        self.isPreset = isPreset
        self.changedFrom = changedFrom
        self.sharing = sharing
    }
}

extension LayoutSummary.Sharing: CustomStringConvertible {
    /// `on the server` for one's own, `shared by alice, viewer` for another's.
    public var description: String {
        role == .owner ? "on the server" : "shared by \(owner), \(role.rawValue)"
    }
}
