/// Where a new pane goes when the caller names no frame: the largest free rectangle, or else
/// half of a pane that can be split (the focused one first, then the largest) — or, when half
/// would be less than the new pane's minimum, that minimum cut from the pane's side. The new
/// pane is never smaller than its minimum, nor the pane it is cut from than the grid's.
struct Placement {
    struct Split {
        let index: Int
        let remainder: Rect
    }

    let frame: Rect
    let splitting: Split?

    /// - Parameter onlyTheFocused: Split no pane but the focused one (a shared canvas: the
    ///   others may be in another member's use).
    static func findSpace(in layout: LayoutData, minimum: Size, onlyTheFocused: Bool = false) throws(CanvasError) -> Placement {
        let grid = layout.grid
        let needed = Size(width: max(minimum.width, grid.minimumPaneSize.width), height: max(minimum.height, grid.minimumPaneSize.height))
        if let free = largestFreeRect(in: layout, minimum: needed) {
            return Placement(frame: free, splitting: nil)
        }
        let order = layout.panes.indices.sorted { a, b in
            let aFocused = layout.panes[a].id == layout.focused, bFocused = layout.panes[b].id == layout.focused
            if aFocused != bFocused { return aFocused }
            return layout.panes[a].frame.area > layout.panes[b].frame.area
        }
        for index in order where !onlyTheFocused || layout.panes[index].id == layout.focused {
            if let (kept, given) = split(layout.panes[index].frame, keeping: grid.minimumPaneSize, giving: needed) {
                return Placement(frame: given, splitting: Split(index: index, remainder: kept))
            }
        }
        throw needed == grid.minimumPaneSize ? .noRoom : .noRoomFor(minimum: needed)
    }

    /// The largest empty rectangle of at least `minimum` (earliest in reading order on ties).
    static func largestFreeRect(in layout: LayoutData, minimum: Size) -> Rect? {
        let grid = layout.grid
        var occupied = Array(repeating: false, count: grid.columns * grid.rows)
        for pane in layout.panes {
            for y in pane.frame.minY..<pane.frame.maxY {
                for x in pane.frame.minX..<pane.frame.maxX { occupied[y * grid.columns + x] = true }
            }
        }
        var best: Rect?
        for y in 0..<grid.rows {
            for x in 0..<grid.columns where !occupied[y * grid.columns + x] {
                var maxWidth = grid.columns - x
                for height in 1...(grid.rows - y) {
                    var width = 0
                    while width < maxWidth, !occupied[(y + height - 1) * grid.columns + x + width] { width += 1 }
                    maxWidth = width
                    guard width > 0 else { break }
                    let candidate = Rect(x: x, y: y, width: width, height: height)
                    if candidate.size.contains(minimum), candidate.area > (best?.area ?? 0) {
                        best = candidate
                    }
                }
            }
        }
        return best
    }

    /// Halves a frame along its longer side, or, when a half is less than `giving`, cuts `giving`
    /// from it; returns (kept, given), or nil when the kept part would be less than `keeping`.
    /// The given part is the right or bottom one, the smaller when the side is odd.
    static func split(_ frame: Rect, keeping: Size, giving: Size) -> (Rect, Rect)? {
        func cut(_ length: Int, minimum: Int, keep: Int) -> Int? {
            let half = max(length / 2, minimum)
            return length - half >= keep ? half : nil
        }
        let sideBySide = frame.height >= giving.height
            ? cut(frame.width, minimum: giving.width, keep: keeping.width).map { width in
                (Rect(x: frame.minX, y: frame.minY, width: frame.width - width, height: frame.height),
                 Rect(x: frame.maxX - width, y: frame.minY, width: width, height: frame.height))
            }
            : nil
        let stacked = frame.width >= giving.width
            ? cut(frame.height, minimum: giving.height, keep: keeping.height).map { height in
                (Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height - height),
                 Rect(x: frame.minX, y: frame.maxY - height, width: frame.width, height: height))
            }
            : nil
        return frame.width >= frame.height ? (sideBySide ?? stacked) : (stacked ?? sideBySide)
    }
}
