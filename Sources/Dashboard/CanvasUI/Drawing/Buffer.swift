import CanvasCore
import CanvasStyle

/// A rectangle of styled cells that widgets and chrome draw into; never a terminal.
///
/// Text is written per grapheme cluster with its display width and clipped by columns, so it
/// cannot spill past the buffer's edge or a given clip rectangle.
public struct Buffer: Hashable, Sendable {
    public let size: Size
    public private(set) var cells: [Cell]
    /// Where the terminal's own cursor is shown: the insertion point of the text field being
    /// typed in, nil for none (the cursor is hidden). Typing then sends the character alone, as
    /// the terminal moves its cursor past what it writes, and a screen reader or magnifier
    /// follows the typing.
    public var cursor: Point?

    public init(size: Size, filling cell: Cell = .blank) {
        let safe = Size(width: max(0, size.width), height: max(0, size.height))
        self.size = safe
        self.cells = Array(repeating: cell, count: safe.area)
    }

    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// Makes this buffer `size` with every cell `cell`, in the storage it has when the size is
    /// the same (frames are drawn into two buffers in turn, with no allocation per frame).
    public mutating func reset(to size: Size, filling cell: Cell = .blank) {
        guard size == self.size else {
            self = Buffer(size: size, filling: cell)
            return
        }
        cells.withUnsafeMutableBufferPointer { $0.update(repeating: cell) }
        cursor = nil
    }

    /// Makes row `y` that of `other`, which has the same size.
    mutating func copyRow(_ y: Int, from other: Buffer) {
        guard other.size == size, y >= 0, y < size.height else { return }
        let row = y * size.width
        cells.replaceSubrange(row..<(row + size.width), with: other.cells[row..<(row + size.width)])
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
        set { cells[y * size.width + x] = newValue }
    }

    /// Writes `text` starting at `point`, clipped to `clip` (default: the whole buffer).
    ///
    /// Control characters are drawn as visible placeholders. A wide character that would be
    /// cut in half by the clip edge is replaced by a space.
    /// - Returns: the column just after the last one written.
    @discardableResult
    public mutating func write(_ text: String, at point: Point, style: Style, clip: Rect? = nil) -> Int {
        let limit = (clip ?? bounds).intersection(bounds)
        guard point.y >= limit.minY, point.y < limit.maxY else { return point.x }
        if let end = text.utf8.withContiguousStorageIfAvailable({ bytes in
            DisplayWidth.isPrintableASCII(bytes) ? writeASCII(bytes, at: point, style: style, limit: limit) : nil
        }), let end {
            return end
        }
        var x = point.x
        let row = point.y * size.width
        for original in text {
            guard x < limit.maxX else { break }
            let character = SafeText.placeholder(for: original) ?? original
            if let letters = DrawnCluster.letters(of: character) {
                x = writeASCII(letters.utf8, at: Point(x: x, y: point.y), style: style, limit: limit)
                continue
            }
            let width = DisplayWidth.of(character)
            if width == 0 {
                // A lone zero-width cluster's marks join the cell before it, if that cell is ours.
                if x - 1 >= max(limit.minX, point.x), !cells[row + x - 1].isContinuation {
                    appendMarks(of: character, toCellAt: row + x - 1)
                }
                continue
            }
            if x >= limit.minX {
                if width == 2, x + 1 >= limit.maxX {
                    clearWideOverlap(at: x, row: row)
                    cells[row + x] = Cell(.space, style: style)
                    x += 1
                    break
                }
                clearWideOverlap(at: x, row: row)
                if width == 2 { clearWideOverlap(at: x + 1, row: row) }
                cells[row + x] = Cell(DrawnCluster.glyph(of: character), style: style)
                if width == 2 { cells[row + x + 1] = Cell(.empty, style: style) }
            } else if width == 2, x + 1 == limit.minX {
                clearWideOverlap(at: x + 1, row: row)
                cells[row + x + 1] = Cell(.space, style: style)  // right half of a clipped wide char
            }
            x += width
        }
        return x
    }

    private mutating func appendMarks(of character: Character, toCellAt index: Int) {
        for mark in DrawnCluster.marks(of: character) where !cells[index].glyph.append(mark) { break }
    }

    /// The common case, without grapheme breaking: printable ASCII, one column per byte. Only
    /// the run's two ends can cut a wide character in half; the cells between are all replaced.
    private mutating func writeASCII(_ bytes: some Collection<UInt8>, at point: Point, style: Style, limit: Rect) -> Int {
        let first = max(point.x, limit.minX), end = min(point.x + bytes.count, limit.maxX)
        guard first < end else { return min(point.x + bytes.count, max(point.x, limit.maxX)) }
        let row = point.y * size.width
        clearWideOverlap(at: first, row: row)
        if end - 1 != first { clearWideOverlap(at: end - 1, row: row) }
        cells.withUnsafeMutableBufferPointer { cells in
            var x = point.x
            for byte in bytes {
                guard x < end else { break }
                if x >= first { cells[row + x] = Cell(Glyph(Unicode.Scalar(byte)), style: style) }
                x += 1
            }
        }
        return end
    }

    /// Repeats a single-width symbol along part of a row, clipped to the buffer: a fast path for
    /// borders and rules, which would otherwise go through grapheme breaking cell by cell.
    mutating func repeatSymbol(_ symbol: Glyph, row y: Int, from minX: Int, to maxX: Int, style: Style) {
        let (start, end) = (max(0, minX), min(size.width, maxX))
        guard y >= 0, y < size.height, start < end else { return }
        let row = y * size.width
        let cell = Cell(symbol, style: style)
        for x in start..<end {
            clearWideOverlap(at: x, row: row)
            cells[row + x] = cell
        }
    }

    /// Fills a rectangle with one cell.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        for y in area.minY..<area.maxY {
            for x in area.minX..<area.maxX { cells[y * size.width + x] = cell }
        }
    }

    /// Copies `other` (its `rows` only, when given) into this buffer with its top-left corner
    /// at `origin`, clipped to this buffer; its cursor comes along when it lands inside.
    public mutating func draw(_ other: Buffer, at origin: Point, rows: Range<Int>? = nil) {
        let copied = rows.map { $0.clamped(to: 0..<other.size.height) } ?? 0..<other.size.height
        let source = Rect(x: 0, y: copied.lowerBound, width: other.size.width, height: copied.count)
        let area = source.offsetBy(origin).intersection(bounds)
        guard !area.isEmpty else { return }
        if let point = other.cursor.map({ Point(x: $0.x + origin.x, y: $0.y + origin.y) }), area.contains(point) { cursor = point }
        for y in area.minY..<area.maxY {
            let source = (y - origin.y) * other.size.width - origin.x
            cells.replaceSubrange((y * size.width + area.minX)..<(y * size.width + area.maxX),
                                  with: other.cells[(source + area.minX)..<(source + area.maxX)])
        }
        for y in area.minY..<area.maxY {
            repairWideEdges(row: y, from: area.minX, to: area.maxX)
        }
    }

    /// Overwriting half of a wide character blanks its other half, so no orphan halves remain.
    private mutating func clearWideOverlap(at x: Int, row: Int) {
        if cells[row + x].isContinuation, x > 0 {
            cells[row + x - 1].glyph = .space
        }
        if x + 1 < size.width, cells[row + x + 1].isContinuation, !cells[row + x].isContinuation {
            cells[row + x + 1].glyph = .space
        }
    }

    private mutating func repairWideEdges(row y: Int, from minX: Int, to maxX: Int) {
        repairWidePair(row: y * size.width, at: minX)
        repairWidePair(row: y * size.width, at: maxX)
    }

    /// Makes cells `x - 1` and `x` agree: a wide lead needs its continuation and vice versa.
    private mutating func repairWidePair(row: Int, at x: Int) {
        let leftIsWideLead = x > 0 && DisplayWidth.of(cells[row + x - 1].glyph) == 2
        // At the right edge of the buffer there is no cell for a wide lead's other half.
        let rightIsContinuation = x < size.width && cells[row + x].isContinuation
        if leftIsWideLead, !rightIsContinuation {
            cells[row + x - 1].glyph = .space
        } else if !leftIsWideLead, rightIsContinuation {
            cells[row + x].glyph = .space
        }
    }
}
