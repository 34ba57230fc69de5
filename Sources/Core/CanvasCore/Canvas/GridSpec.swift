/// The layout grid: `columns × rows` units that map proportionally onto any terminal size.
public struct GridSpec: Hashable, Sendable, Codable {
    public var columns: Int
    public var rows: Int
    /// The smallest pane, in grid units, that any arrangement step may leave behind.
    public var minimumPaneSize: Size

    public init(columns: Int = 12, rows: Int = 12, minimumPaneSize: Size = Size(width: 2, height: 2)) {
        self.columns = columns
        self.rows = rows
        self.minimumPaneSize = minimumPaneSize
    }

    public static let standard = GridSpec()

    /// The largest grid accepted: beyond it grid units are smaller than a terminal cell.
    public static let maximumDimension = 64

    public var bounds: Rect { Rect(x: 0, y: 0, width: columns, height: rows) }

    /// Checks the dimensions are usable.
    /// - Throws: `CanvasError.invalidGrid` with the reason.
    public func validate() throws(CanvasError) {
        guard (1...Self.maximumDimension).contains(columns), (1...Self.maximumDimension).contains(rows) else {
            throw .invalidGrid("columns and rows must be between 1 and \(Self.maximumDimension), got \(columns)×\(rows)")
        }
        guard minimumPaneSize.width >= 1, minimumPaneSize.height >= 1,
              minimumPaneSize.width <= columns, minimumPaneSize.height <= rows
        else {
            throw .invalidGrid("minimum pane size \(minimumPaneSize) does not fit a \(columns)×\(rows) grid")
        }
    }

    /// Maps a rectangle in grid units onto terminal cells inside `area`.
    ///
    /// Each grid line `i` sits at cell `area.minX + i * area.width / columns` (rounded down), so
    /// neighbouring panes share an edge exactly and the whole area is covered at any size.
    public func cellRect(for gridRect: Rect, in area: Rect) -> Rect {
        let x0 = area.minX + gridRect.minX * area.width / columns
        let x1 = area.minX + gridRect.maxX * area.width / columns
        let y0 = area.minY + gridRect.minY * area.height / rows
        let y1 = area.minY + gridRect.maxY * area.height / rows
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest area, from `start` up to `limit` each way, in which every one of `frames`
    /// (grid rectangles) gets at least `cells`; `limit` where none does. Pane widths depend only
    /// on the area's width and heights only on its height, so each is searched on its own.
    public func smallestArea(giving frames: [Rect], cells: Size, from start: Size, upTo limit: Size) -> Size {
        func fits(width: Int) -> Bool {
            frames.allSatisfy { cellRect(for: $0, in: Rect(x: 0, y: 0, width: width, height: 1)).width >= cells.width }
        }
        func fits(height: Int) -> Bool {
            frames.allSatisfy { cellRect(for: $0, in: Rect(x: 0, y: 0, width: 1, height: height)).height >= cells.height }
        }
        let width = start.width <= limit.width ? (start.width...limit.width).first(where: fits(width:)) : nil
        let height = start.height <= limit.height ? (start.height...limit.height).first(where: fits(height:)) : nil
        return Size(width: width ?? limit.width, height: height ?? limit.height)
    }
}
