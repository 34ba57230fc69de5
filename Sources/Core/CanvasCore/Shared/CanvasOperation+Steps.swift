extension CanvasOperation {
    /// The operations that take `before` to `after` on a shared canvas: what one arrangement step
    /// (a key, a drag, an add that split a pane) sends, so the server replays it by the
    /// `CanvasManager`'s rules on whatever the canvas is when its turn comes. One move or resize
    /// when one says it all (a key's step: neighbours that gave way follow by the same rules);
    /// else removals first (their neighbours taking the room when `after` has them so), then
    /// each moved or resized pane in as many passes as it takes, then new panes, then changed
    /// settings. Focus and each pane's state are each person's own and not compared.
    ///
    /// - Returns: nil when no such list reproduces `after` exactly (a step the operations cannot
    ///   say; the caller refuses it rather than show something the others will not see).
    public static func operations(from before: LayoutData, to after: LayoutData) -> [CanvasOperation]? {
        guard before.grid == after.grid else { return nil }
        var current = before
        current.focused = nil
        let frames = { (layout: LayoutData) in Dictionary(layout.panes.map { ($0.id, $0.frame) }, uniquingKeysWith: { first, _ in first }) }
        let same = { (layout: LayoutData) in frames(layout) == frames(after) && layout.panes.map(\.id) == after.panes.map(\.id) }
        if let one = onlyOperation(from: current, to: after, matching: same) { return [one] }
        var operations: [CanvasOperation] = []
        func take(_ operation: CanvasOperation) -> Bool {
            guard let next = try? operation.applied(to: current) else { return false }
            current = next
            operations.append(operation)
            return true
        }
        let kept = Set(after.panes.map(\.id)), old = Set(before.panes.map(\.id))
        for pane in before.panes where !kept.contains(pane.id) {
            // Refilled when the neighbours that take the room are where `after` has them.
            let refilled = try? CanvasOperation.remove(pane.id).applied(to: current)
            let grownAsAfter = refilled.map { layout in
                layout.panes.allSatisfy { grown in current.pane(grown.id)?.frame == grown.frame || after.pane(grown.id)?.frame == grown.frame }
            } ?? false
            guard take(.remove(pane.id, refill: grownAsAfter)) else { return nil }
        }
        for _ in 0...after.panes.count {
            let misplaced = after.panes.filter { wanted in current.pane(wanted.id).map { $0.frame != wanted.frame } ?? false }
            guard !misplaced.isEmpty else { break }
            var progressed = false
            for wanted in misplaced {
                guard let now = current.pane(wanted.id)?.frame, now != wanted.frame else { continue }
                if now.size != wanted.frame.size, take(.resize(wanted.id, to: wanted.frame.size)) { progressed = true }
                if let moved = current.pane(wanted.id)?.frame, moved.origin != wanted.frame.origin,
                   take(.move(wanted.id, to: wanted.frame.origin)) { progressed = true }
            }
            guard progressed else { break }
        }
        for pane in after.panes where !old.contains(pane.id) {
            guard take(.add(pane)) else { return nil }
        }
        for pane in after.panes where old.contains(pane.id) && current.pane(pane.id)?.config != pane.config {
            guard take(.configure(pane.id, pane.config)) else { return nil }
        }
        guard same(current) else { return nil }
        return operations
    }

    /// The one move, resize or swap that takes `before` to a layout `same` accepts, when the
    /// step changed only frames.
    private static func onlyOperation(from before: LayoutData, to after: LayoutData,
                                      matching same: (LayoutData) -> Bool) -> CanvasOperation? {
        guard before.panes.map(\.id) == after.panes.map(\.id), before.panes.map(\.config) == after.panes.map(\.config) else { return nil }
        for wanted in after.panes {
            guard let now = before.pane(wanted.id)?.frame, now != wanted.frame else { continue }
            let candidates: [CanvasOperation] = [.move(wanted.id, to: wanted.frame.origin), .resize(wanted.id, to: wanted.frame.size)]
            for candidate in candidates {
                if let replayed = try? candidate.applied(to: before), same(replayed) { return candidate }
            }
        }
        // A move onto a pane of another size, which the grid's edge keeps from saying as a move.
        let changed = after.panes.filter { before.pane($0.id)?.frame != $0.frame }
        if changed.count == 2, let swapped = try? CanvasOperation.swap(changed[0].id, changed[1].id).applied(to: before), same(swapped) {
            return .swap(changed[0].id, changed[1].id)
        }
        return nil
    }
}
