extension CanvasManager {
    /// Focuses a pane by id. Returns false when there is no such pane.
    @discardableResult
    public mutating func focus(_ id: PaneID) -> Bool {
        guard pane(id) != nil else { return false }
        setFocus(id)
        return true
    }

    /// Focuses pane number `number` (1-based, as shown in titles).
    @discardableResult
    public mutating func focus(number: Int) -> Bool {
        guard panes.indices.contains(number - 1) else { return false }
        setFocus(panes[number - 1].id)
        return true
    }

    /// Focuses the next pane in numbering order, wrapping around.
    public mutating func focusNext() { cycleFocus(by: 1) }

    /// Focuses the previous pane in numbering order, wrapping around.
    public mutating func focusPrevious() { cycleFocus(by: -1) }

    /// Focuses the nearest pane in `direction` from the focused one. Returns false when none lies there.
    ///
    /// Candidates lie wholly beyond the focused pane's edge; the nearest edge wins, then the
    /// largest overlap across the direction, then the closest centre.
    @discardableResult
    public mutating func focus(_ direction: Direction) -> Bool {
        guard let from = focusedPane?.frame,
              let target = Self.nearestPane(from: from, toward: direction, among: panes)
        else { return false }
        setFocus(target)
        return true
    }

    static func nearestPane(from frame: Rect, toward direction: Direction, among panes: [Pane]) -> PaneID? {
        func score(_ other: Rect) -> (gap: Int, overlap: Int, offset: Int)? {
            let gap: Int, overlap: Int, offset: Int
            switch direction {
            case .right: gap = other.minX - frame.maxX
            case .left: gap = frame.minX - other.maxX
            case .down: gap = other.minY - frame.maxY
            case .up: gap = frame.minY - other.maxY
            }
            guard gap >= 0 else { return nil }
            if direction.isHorizontal {
                overlap = min(frame.maxY, other.maxY) - max(frame.minY, other.minY)
                offset = abs(frame.doubledCenter.y - other.doubledCenter.y)
            } else {
                overlap = min(frame.maxX, other.maxX) - max(frame.minX, other.minX)
                offset = abs(frame.doubledCenter.x - other.doubledCenter.x)
            }
            return (gap, -overlap, offset)
        }
        return panes
            .compactMap { pane in score(pane.frame).map { (pane.id, $0) } }
            .min { $0.1 < $1.1 }?
            .0
    }

    private mutating func cycleFocus(by step: Int) {
        guard !panes.isEmpty else { return }
        let current = focusedPaneID.flatMap { id in panes.firstIndex { $0.id == id } } ?? (step > 0 ? -1 : 0)
        let next = ((current + step) % panes.count + panes.count) % panes.count
        setFocus(panes[next].id)
    }
}
