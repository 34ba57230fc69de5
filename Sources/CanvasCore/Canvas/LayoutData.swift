/// A whole arrangement as a value: the grid, its panes in numbering order, and the focused pane.
public struct LayoutData: Hashable, Sendable, Codable {
    public var name: String
    public var grid: GridSpec
    /// Panes in numbering order: the first pane is pane 1 (Alt+1), and Tab follows this order.
    public var panes: [Pane]
    public var focused: PaneID?

    public init(name: String, grid: GridSpec = .standard, panes: [Pane] = [], focused: PaneID? = nil) {
        self.name = name
        self.grid = grid
        self.panes = panes
        self.focused = focused
    }

    public func pane(_ id: PaneID) -> Pane? { panes.first { $0.id == id } }

    /// Checks the arrangement rules: a usable grid, unique ids, every pane inside the grid,
    /// at least the minimum size, and no two panes overlapping.
    /// - Throws: `CanvasError` naming the first offending pane.
    public func validate() throws(CanvasError) {
        try grid.validate()
        var seen = Set<PaneID>()
        for (index, pane) in panes.enumerated() {
            guard seen.insert(pane.id).inserted else { throw .duplicatePane(pane.id) }
            guard grid.bounds.contains(pane.frame) else { throw .outOfGrid(pane.id, pane.frame) }
            guard pane.frame.size.contains(grid.minimumPaneSize) else {
                throw .belowMinimumSize(pane.id, minimum: grid.minimumPaneSize)
            }
            for other in panes[..<index] where other.frame.intersects(pane.frame) {
                throw .overlap(pane.id, other.id)
            }
        }
        if let focused, !seen.contains(focused) { throw .unknownPane(focused) }
    }
}

/// A stored layout as a list shows it.
public struct LayoutSummary: Hashable, Sendable {
    public let name: String
    public let paneCount: Int
    /// Seconds since 1970 of the last save; nil for a preset never saved.
    public let updatedAt: Double?
    public let isPreset: Bool

    public init(name: String, paneCount: Int, updatedAt: Double?, isPreset: Bool) {
        self.name = name
        self.paneCount = paneCount
        self.updatedAt = updatedAt
        self.isPreset = isPreset
    }
}
