/// Owns the grid and the panes, and applies every arrangement step as a checked, undoable change.
///
/// Rules, so that panes never overlap and are never lost:
/// - Every step is validated as a whole; a refused step throws and leaves the canvas unchanged.
/// - Moving onto other panes swaps places with the pane the target overlaps most, each keeping
///   its size where they can, else taking each other's frames.
/// - Growing takes free space or shrinks the neighbours on that side down to their minimum.
/// - Shrinking hands the freed strip to neighbours that lie wholly along that edge, so a full
///   canvas stays full; so does removing, whose room the neighbours along one side take back.
/// - Every step that changes the arrangement can be undone and redone; loading a layout or
///   initializing the grid starts a fresh history.
public struct CanvasManager: Sendable {
    public private(set) var layout: LayoutData
    var history: UndoHistory<LayoutData>
    private var nextID: Int

    public init(layout: LayoutData = LayoutData(name: "default"), historyLimit: Int = 500) throws(CanvasError) {
        try self.init(layout: layout, history: UndoHistory(limit: historyLimit))
    }

    /// Restores a canvas with its undo history, e.g. from disk. Snapshots that are not valid
    /// layouts are dropped from the history rather than failing the whole restore.
    public init(layout: LayoutData, history: UndoHistory<LayoutData>) throws(CanvasError) {
        try layout.validate()
        self.layout = layout
        let valid = { (snapshot: LayoutData) in (try? snapshot.validate()) != nil }
        self.history = UndoHistory(past: history.undoSnapshots.filter(valid),
                                   future: history.redoSnapshots.filter(valid), limit: history.limit)
        // Ids stay unique across the history too, so a redo never brings back a reused id.
        let known = ([layout] + self.history.undoSnapshots + self.history.redoSnapshots).flatMap(\.panes)
        self.nextID = (known.map(\.id.rawValue).max() ?? 0) + 1
        if self.layout.focused == nil { self.layout.focused = layout.panes.first?.id }
    }

    public var grid: GridSpec { layout.grid }
    public var panes: [Pane] { layout.panes }
    public var focusedPaneID: PaneID? { layout.focused }
    public var focusedPane: Pane? { layout.focused.flatMap(layout.pane) }
    public var canUndo: Bool { history.canUndo }
    /// The undo history, for persisting it.
    public var undoHistory: UndoHistory<LayoutData> { history }
    public var canRedo: Bool { history.canRedo }

    public func pane(_ id: PaneID) -> Pane? { layout.pane(id) }

    /// The 1-based number shown in a pane's title and used by Alt+N.
    public func number(of id: PaneID) -> Int? {
        layout.panes.firstIndex { $0.id == id }.map { $0 + 1 }
    }

    // MARK: Seed API

    /// Starts an empty canvas on a new grid, with a fresh history.
    public mutating func initializeGrid(_ grid: GridSpec) throws(CanvasError) {
        try grid.validate()
        layout = LayoutData(name: layout.name, grid: grid)
        history = UndoHistory(limit: history.limit)
    }

    /// Adds a pane and focuses it.
    /// - Returns: the new pane's id.
    /// - Throws: `CanvasError` when the requested frame is taken or there is no room anywhere.
    /// - Parameter onlySplittingTheFocused: Without free room, split the focused pane or none
    ///   (a shared canvas), not the largest when the focused one is too small.
    @discardableResult
    public mutating func addWidget(_ new: NewPane, onlySplittingTheFocused: Bool = false) throws(CanvasError) -> PaneID {
        let id = PaneID(nextID)
        var next = layout
        if let frame = new.frame {
            next.panes.append(Pane(id: id, app: new.app, frame: frame, config: new.config, state: new.state))
        } else {
            let placement = try Placement.findSpace(in: layout, minimum: new.minimumSize ?? grid.minimumPaneSize,
                                                    onlyTheFocused: onlySplittingTheFocused)
            if let split = placement.splitting {
                next.panes[split.index].frame = split.remainder
            }
            next.panes.append(Pane(id: id, app: new.app, frame: placement.frame, config: new.config, state: new.state))
        }
        next.focused = id
        try commit(next)
        nextID += 1
        return id
    }

    /// Removes a pane, its neighbours taking its room back (`LayoutData.removing`); focus moves
    /// to the pane numbered next to it.
    public mutating func removeWidget(_ id: PaneID) throws(CanvasError) {
        let index = try index(of: id)
        var next = try layout.removing(id)
        if next.focused == id {
            next.focused = next.panes.isEmpty ? nil : next.panes[min(index, next.panes.count - 1)].id
        }
        try commit(next)
    }

    /// Moves a pane's origin; onto other panes it swaps with the one the target overlaps most.
    ///
    /// The two keep their sizes when they can (`swappedKeepingSizes`): a 5×7 calendar moved right
    /// past a 7×12 event log stays 5×7, and the pane below it goes along. Where they cannot, they
    /// trade frames, so a move onto a pane always does something.
    public mutating func updateWidgetPosition(_ id: PaneID, to origin: Point) throws(CanvasError) {
        let index = try index(of: id)
        let current = layout.panes[index].frame
        let target = current.moved(to: origin)
        guard target != current else { return }
        guard grid.bounds.contains(target) else { throw .outOfGrid(id, target) }
        var next = layout
        let overlapped = layout.panes.indices
            .filter { $0 != index && layout.panes[$0].frame.intersects(target) }
            .max { layout.panes[$0].frame.intersection(target).area < layout.panes[$1].frame.intersection(target).area }
        if let other = overlapped {
            if let swapped = Self.swappedKeepingSizes(layout, moving: index, onto: other, towards: target), (try? swapped.validate()) != nil {
                next = swapped
            } else {
                next.panes[index].frame = layout.panes[other].frame
                next.panes[other].frame = current
            }
        } else {
            next.panes[index].frame = target
        }
        try commit(next)
    }

    /// `layout` with two neighbouring panes changing places along the move's axis (the one it
    /// goes furthest on), each keeping its size: the blocks they make across that axis (each
    /// pane's span along it, both panes' span across it) trade places, with every pane inside
    /// them. Nil when the blocks are not side by side or a pane lies across a block's edge.
    static func swappedKeepingSizes(_ layout: LayoutData, moving index: Int, onto other: Int, towards target: Rect) -> LayoutData? {
        let moved = layout.panes[index].frame, still = layout.panes[other].frame
        let horizontal = abs(target.minX - moved.minX) >= abs(target.minY - moved.minY)
        let blocks: (moved: Rect, still: Rect)
        if horizontal {
            let top = min(moved.minY, still.minY), height = max(moved.maxY, still.maxY) - top
            blocks = (Rect(x: moved.minX, y: top, width: moved.width, height: height),
                      Rect(x: still.minX, y: top, width: still.width, height: height))
        } else {
            let left = min(moved.minX, still.minX), width = max(moved.maxX, still.maxX) - left
            blocks = (Rect(x: left, y: moved.minY, width: width, height: moved.height),
                      Rect(x: left, y: still.minY, width: width, height: still.height))
        }
        let (first, second) = horizontal ? (blocks.moved.minX, blocks.still.minX) : (blocks.moved.minY, blocks.still.minY)
        let movedLength = horizontal ? blocks.moved.width : blocks.moved.height
        let stillLength = horizontal ? blocks.still.width : blocks.still.height
        guard first < second ? first + movedLength == second : second + stillLength == first else { return nil }
        // The block in front moves back by the other's length; the one behind moves forward by it.
        let shift = (moved: first < second ? stillLength : -stillLength, still: first < second ? -movedLength : movedLength)
        var next = layout
        for pane in layout.panes.indices {
            let frame = layout.panes[pane].frame
            let by: Int
            if blocks.moved.contains(frame) { by = shift.moved } else if blocks.still.contains(frame) { by = shift.still } else {
                guard !frame.intersects(blocks.moved), !frame.intersects(blocks.still) else { return nil }
                continue
            }
            next.panes[pane].frame = frame.moved(to: horizontal ? Point(x: frame.minX + by, y: frame.minY) : Point(x: frame.minX, y: frame.minY + by))
        }
        return next
    }

    /// Resizes a pane keeping its origin; see the type's rules for neighbours.
    public mutating func updateWidgetSize(_ id: PaneID, to size: Size) throws(CanvasError) {
        let index = try index(of: id)
        let old = layout.panes[index].frame
        let new = old.resized(to: size)
        guard new != old else { return }
        guard size.contains(grid.minimumPaneSize) else { throw .belowMinimumSize(id, minimum: grid.minimumPaneSize) }
        guard grid.bounds.contains(new) else { throw .outOfGrid(id, new) }
        var next = layout
        next.panes[index].frame = new
        for other in next.panes.indices where other != index {
            next.panes[other].frame = try Self.adjust(neighbour: next.panes[other], from: old, to: new, grid: grid)
        }
        try commit(next)
    }

    /// The current arrangement as a value, ready to persist.
    public func saveLayout() -> LayoutData { layout }

    /// Replaces the canvas with `layout` after checking it; starts a fresh history.
    public mutating func loadLayout(_ layout: LayoutData) throws(CanvasError) {
        self = try CanvasManager(layout: layout, historyLimit: history.limit)
    }

    // MARK: Steps by direction (the arrange-mode keys)

    /// Moves a pane one grid unit.
    public mutating func movePane(_ id: PaneID, _ direction: Direction) throws(CanvasError) {
        guard let pane = pane(id) else { throw .unknownPane(id) }
        try updateWidgetPosition(id, to: pane.frame.origin.moved(direction))
    }

    /// Resizes a pane one grid unit: right and down grow it, left and up shrink it.
    public mutating func resizePane(_ id: PaneID, _ direction: Direction) throws(CanvasError) {
        guard let frame = pane(id)?.frame else { throw .unknownPane(id) }
        let delta = direction.unit
        try updateWidgetSize(id, to: Size(width: frame.width + delta.x, height: frame.height + delta.y))
    }

    /// Several steps taken as one (a mouse drag): one undo brings back the arrangement before
    /// them all. Steps after the first that fails are not taken.
    public mutating func asOneStep(_ steps: (inout CanvasManager) throws(CanvasError) -> Void) {
        var scratch = self
        try? steps(&scratch)
        guard scratch.layout != layout else { return }
        history.record(layout)
        layout = scratch.layout
    }

    // MARK: State that is not an arrangement step

    /// Stores a widget's current settings and state; not an undoable step.
    public mutating func updateValues(of id: PaneID, config: WidgetValues, state: WidgetValues) {
        guard let index = layout.panes.firstIndex(where: { $0.id == id }) else { return }
        layout.panes[index].config = config
        layout.panes[index].state = state
    }

    /// Renames the layout; not an undoable step.
    public mutating func rename(to name: String) {
        layout.name = name
    }

    // MARK: Undo

    /// Steps back one arrangement change. Returns false when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let previous = history.undo(from: layout) else { return false }
        layout = carryingState(into: previous)
        return true
    }

    /// Re-applies an undone change. Returns false when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let next = history.redo(from: layout) else { return false }
        layout = carryingState(into: next)
        return true
    }

    /// Puts a history loaded later (e.g. from disk after the first frame) before the steps made
    /// since; what could be redone then only survives if no step was made in between.
    public mutating func adoptEarlierHistory(_ earlier: UndoHistory<LayoutData>) {
        let valid = { (snapshot: LayoutData) in (try? snapshot.validate()) != nil }
        let future = history.canUndo ? history.redoSnapshots : earlier.redoSnapshots.filter(valid)
        history = UndoHistory(past: earlier.undoSnapshots.filter(valid) + history.undoSnapshots, future: future,
                              limit: history.limit)
        let known = (history.undoSnapshots + history.redoSnapshots).flatMap(\.panes).map(\.id.rawValue)
        nextID = max(nextID, (known.max() ?? 0) + 1)
    }

    // MARK: Internals

    /// Focus changes are navigation, not arrangement steps.
    mutating func setFocus(_ id: PaneID?) {
        layout.focused = id
    }

    private func index(of id: PaneID) throws(CanvasError) -> Int {
        guard let index = layout.panes.firstIndex(where: { $0.id == id }) else { throw .unknownPane(id) }
        return index
    }

    private mutating func commit(_ next: LayoutData) throws(CanvasError) {
        try next.validate()
        history.record(layout)
        layout = next
    }

    /// Widget settings and state, and the layout's name, live on; undo changes only the arrangement.
    private func carryingState(into snapshot: LayoutData) -> LayoutData {
        var result = snapshot
        result.name = layout.name
        for index in result.panes.indices {
            if let live = layout.pane(result.panes[index].id) {
                result.panes[index].config = live.config
                result.panes[index].state = live.state
            }
        }
        return result
    }

    /// Trims a neighbour the resized pane now overlaps, or widens one along an edge it freed.
    private static func adjust(neighbour pane: Pane, from old: Rect, to new: Rect, grid: GridSpec) throws(CanvasError) -> Rect {
        var frame = pane.frame
        if frame.intersects(new) {
            if frame.minX >= old.maxX {
                frame = Rect(x: new.maxX, y: frame.minY, width: frame.maxX - new.maxX, height: frame.height)
            } else if frame.minY >= old.maxY {
                frame = Rect(x: frame.minX, y: new.maxY, width: frame.width, height: frame.maxY - new.maxY)
            }
            guard frame.size.contains(grid.minimumPaneSize) else { throw .neighbourAtMinimum(pane.id) }
            return frame
        }
        if new.maxX < old.maxX, frame.minX == old.maxX, frame.minY >= old.minY, frame.maxY <= old.maxY {
            frame = Rect(x: new.maxX, y: frame.minY, width: frame.maxX - new.maxX, height: frame.height)
        }
        if new.maxY < old.maxY, frame.minY == old.maxY, frame.minX >= old.minX, frame.maxX <= old.maxX {
            frame = Rect(x: frame.minX, y: new.maxY, width: frame.width, height: frame.maxY - new.maxY)
        }
        return frame
    }
}
