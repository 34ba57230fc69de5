/// A stored layout as a list shows it.
public struct LayoutSummary: Hashable, Sendable {
    public let name: String
    public let paneCount: Int
    /// Seconds since 1970 of the last save; nil for a preset never saved.
    public let updatedAt: Double?
    public let isPreset: Bool
    /// For a shared canvas's copy: whose it is and this user's role (`shared by alice, viewer`).
    public let sharing: String?

    public init(name: String, paneCount: Int, updatedAt: Double?, isPreset: Bool, sharing: String? = nil) {
        self.name = name
        self.paneCount = paneCount
        self.updatedAt = updatedAt
        self.isPreset = isPreset
        self.sharing = sharing
    }
}
