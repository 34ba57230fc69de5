import CanvasCore

/// A pane being dragged with the mouse in arrange mode: by its title to move it, by its
/// bottom-right corner to resize it. The whole drag is one arrangement step.
struct PaneDrag {
    enum Kind {
        /// Moving; `grab` is where in the pane, in grid units, the pointer holds it.
        case move(grab: Point)
        case resize
    }

    let pane: PaneID
    let kind: Kind
    /// The canvas when the drag began: each motion is replayed from it, so the drag ends as one step.
    let start: CanvasManager

    /// The canvas with the pane taken towards `target` (a grid unit) one unit at a time, as the
    /// arrange keys would: across first, then down or up, each as far as steps are allowed (an
    /// edge, a minimum size).
    func canvas(towards target: Point, grid: GridSpec) -> CanvasManager {
        var canvas = start
        let (pane, kind) = (pane, kind)
        canvas.asOneStep { canvas throws(CanvasError) in
            for horizontal in [true, false] {
                // Bounded: a swap may carry the pane past the target, and never far.
                for _ in 0..<(grid.columns + grid.rows) {
                    guard let frame = canvas.pane(pane)?.frame, let step = Self.step(kind, frame: frame, towards: target, horizontal: horizontal),
                          (try? Self.take(step, kind, pane, on: &canvas)) != nil else { break }
                }
            }
        }
        return canvas
    }

    private static func take(_ step: Direction, _ kind: Kind, _ pane: PaneID, on canvas: inout CanvasManager) throws(CanvasError) {
        switch kind {
        case .move: try canvas.movePane(pane, step)
        case .resize: try canvas.resizePane(pane, step)
        }
    }

    /// The next unit step along one axis, or nil once there.
    private static func step(_ kind: Kind, frame: Rect, towards target: Point, horizontal: Bool) -> Direction? {
        let delta: Point = switch kind {
        case .move(let grab): Point(x: target.x - grab.x - frame.minX, y: target.y - grab.y - frame.minY)
        // The corner's grid unit becomes the pane's last column and row.
        case .resize: Point(x: target.x - (frame.maxX - 1), y: target.y - (frame.maxY - 1))
        }
        if horizontal { return delta.x == 0 ? nil : delta.x > 0 ? .right : .left }
        return delta.y == 0 ? nil : delta.y > 0 ? .down : .up
    }
}
