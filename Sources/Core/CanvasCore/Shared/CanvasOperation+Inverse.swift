extension CanvasOperation {
    /// The operation that takes this one back, given the layout it was applied to: what a
    /// member's undo sends on a shared canvas, so it undoes that member's own edit and no one
    /// else's. Nil when `before` does not have the pane it names (it did not apply there).
    ///
    /// A move or resize taken back puts the pane where it was; neighbours that gave way move by
    /// the same rules as any step, so the layout around it may differ from before when others
    /// changed it meanwhile.
    public func inverse(before: LayoutData) -> CanvasOperation? {
        switch self {
        case .add(let pane): return .remove(pane.id)
        case .swap(let first, let second): return .swap(first, second)
        case .remove(let id, _): return before.pane(id).map { .add($0) }
        case .move(let id, _): return before.pane(id).map { .move(id, to: $0.frame.origin) }
        case .resize(let id, _): return before.pane(id).map { .resize(id, to: $0.frame.size) }
        case .configure(let id, _): return before.pane(id).map { .configure(id, $0.config) }
        case .setState(let id, _): return before.pane(id).map { .setState(id, $0.state) }
        }
    }
}
