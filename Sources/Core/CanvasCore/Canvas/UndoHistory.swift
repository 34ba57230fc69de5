/// A bounded undo/redo history of snapshots.
public struct UndoHistory<Snapshot: Sendable>: Sendable {
    private var past: [Snapshot] = []
    private var future: [Snapshot] = []
    public let limit: Int

    public init(limit: Int = 500) {
        self.limit = max(1, limit)
    }

    /// Restores a history, e.g. from disk: `past` oldest first, `future` next-to-redo first.
    public init(past: [Snapshot], future: [Snapshot], limit: Int = 500) {
        self.limit = max(1, limit)
        self.past = Array(past.suffix(self.limit))
        self.future = future.reversed()
    }

    /// The states undo goes back to, oldest first.
    public var undoSnapshots: [Snapshot] { past }
    /// The states redo goes forward to, next first.
    public var redoSnapshots: [Snapshot] { future.reversed() }

    public var canUndo: Bool { !past.isEmpty }
    public var canRedo: Bool { !future.isEmpty }
    public var undoCount: Int { past.count }

    /// Records the state before a new step; a new step discards what could be redone.
    public mutating func record(_ before: Snapshot) {
        past.append(before)
        if past.count > limit { past.removeFirst(past.count - limit) }
        future.removeAll()
    }

    /// Returns the state to go back to, remembering `current` for redo.
    public mutating func undo(from current: Snapshot) -> Snapshot? {
        guard let previous = past.popLast() else { return nil }
        future.append(current)
        return previous
    }

    /// Returns the state to go forward to, remembering `current` for undo.
    public mutating func redo(from current: Snapshot) -> Snapshot? {
        guard let next = future.popLast() else { return nil }
        past.append(current)
        return next
    }
}
