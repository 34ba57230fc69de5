/// Where a new pane goes when the caller names no frame: the largest free rectangle, or else
/// half of a pane that can be split (the focused one first, then the largest).
struct Placement {
    struct Split {
        let index: Int
        let remainder: Rect
    }

    let frame: Rect
    let splitting: Split?

    static func findSpace(in layout: LayoutData) throws(CanvasError) -> Placement {
        if let free = largestFreeRect(in: layout) {
            return Placement(frame: free, splitting: nil)
        }
        let order = layout.panes.indices.sorted { a, b in
            let aFocused = layout.panes[a].id == layout.focused, bFocused = layout.panes[b].id == layout.focused
            if aFocused != bFocused { return aFocused }
            return layout.panes[a].frame.area > layout.panes[b].frame.area
        }
        for index in order {
            if let (kept, given) = split(layout.panes[index].frame, minimum: layout.grid.minimumPaneSize) {
                return Placement(frame: given, splitting: Split(index: index, remainder: kept))
            }
        }
        throw .noRoom
    }

    /// The largest empty rectangle of at least the minimum pane size (earliest in reading order on ties).
    static func largestFreeRect(in layout: LayoutData) -> Rect? {
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
                    if candidate.size.contains(grid.minimumPaneSize), candidate.area > (best?.area ?? 0) {
                        best = candidate
                    }
                }
            }
        }
        return best
    }

    /// Halves a frame along its longer side; returns (kept, given) or nil when a half would be too small.
    /// The given half is the smaller one (right or bottom) when the side is odd.
    static func split(_ frame: Rect, minimum: Size) -> (Rect, Rect)? {
        let halfWidth = frame.width / 2, halfHeight = frame.height / 2
        let sideBySide = halfWidth >= minimum.width
            ? (Rect(x: frame.minX, y: frame.minY, width: frame.width - halfWidth, height: frame.height),
               Rect(x: frame.maxX - halfWidth, y: frame.minY, width: halfWidth, height: frame.height))
            : nil
        let stacked = halfHeight >= minimum.height
            ? (Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height - halfHeight),
               Rect(x: frame.minX, y: frame.maxY - halfHeight, width: frame.width, height: halfHeight))
            : nil
        return frame.width >= frame.height ? (sideBySide ?? stacked) : (stacked ?? sideBySide)
    }
}
