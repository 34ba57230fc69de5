import CanvasCore

/// Arranging with the mouse: in arrange mode, a pane's title drags it and its bottom-right corner
/// resizes it, one grid unit at a time, each drag one undo step.
extension HostState {
    /// Starts a drag when a press in arrange mode lands on a pane's title row or its corner.
    /// Returns true when it did.
    mutating func beginDrag(_ mouse: MouseEvent, on pane: Pane) -> Bool {
        guard mode == .arrange, mouse.action == .press else { return false }
        let rect = cellRect(of: pane)
        let kind: PaneDrag.Kind
        if mouse.position == Point(x: rect.maxX - 1, y: rect.maxY - 1) {
            kind = .resize
        } else if mouse.position.y == rect.minY, let unit = gridUnit(at: mouse.position) {
            kind = .move(grab: Point(x: unit.x - pane.frame.minX, y: unit.y - pane.frame.minY))
        } else {
            return false
        }
        syncWidgetValues()
        drag = PaneDrag(pane: pane.id, kind: kind, start: manager)
        logger.debug("drag", metadata: ["pane": "\(pane.id)", "kind": "\(kind)"])
        return true
    }

    /// Follows the pointer while the button is held.
    mutating func continueDrag(to position: Point) {
        guard let drag, let unit = gridUnit(at: clamped(position)) else { return }
        manager = drag.canvas(towards: unit, grid: manager.grid)
    }

    /// Ends the drag (the button is released, or a key is pressed) and records it as one step.
    mutating func endDrag() {
        guard let drag else { return }
        self.drag = nil
        let before = drag.start.saveLayout()
        guard manager.saveLayout() != before else { return }
        let step = if case .move = drag.kind { "move" } else { "resize" }
        record(step, before: before)
    }

    /// The grid unit under a cell of the canvas.
    private func gridUnit(at point: Point) -> Point? {
        let grid = manager.grid
        let column = (0..<grid.columns).first { grid.cellRect(for: Rect(x: $0, y: 0, width: 1, height: 1), in: canvasArea).maxX > point.x }
        let row = (0..<grid.rows).first { grid.cellRect(for: Rect(x: 0, y: $0, width: 1, height: 1), in: canvasArea).maxY > point.y }
        guard let column, let row else { return nil }
        return Point(x: column, y: row)
    }

    /// A pointer dragged past the canvas's edge counts as at the edge.
    private func clamped(_ point: Point) -> Point {
        Point(x: min(max(0, point.x), max(0, canvasArea.width - 1)), y: min(max(0, point.y), max(0, canvasArea.height - 1)))
    }
}
