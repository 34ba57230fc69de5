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
        let units = 0...GridSpec.maximumDimension
        for (index, pane) in panes.enumerated() {
            // Raw ranges first, so hostile numbers are refused before any arithmetic on them.
            guard (1...Int(Int32.max)).contains(pane.id.rawValue) else { throw .invalidPaneID(pane.id.rawValue) }
            guard units.contains(pane.frame.x), units.contains(pane.frame.y), units.contains(pane.frame.width),
                  units.contains(pane.frame.height)
            else { throw .outOfGrid(pane.id, pane.frame) }
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

    /// Whether the two have the same grid and the same panes in the same places; settings,
    /// state and focus do not count.
    public func hasSameArrangement(as other: LayoutData) -> Bool {
        grid == other.grid && panes.map(\.id) == other.panes.map(\.id) && panes.map(\.app) == other.panes.map(\.app)
            && panes.map(\.frame) == other.panes.map(\.frame)
    }
}
