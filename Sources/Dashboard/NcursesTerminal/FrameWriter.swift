internal import CNcursesw
import CanvasCore
import CanvasStyle
import CanvasUI

/// Turns a frame's changed runs into the bytes that show them: the shortest cursor move to each
/// cell the terminal offers, only the attributes that change, the cells' text; one buffer that the
/// terminal is sent in one write.
///
/// It keeps what it knows of the terminal between frames (where the cursor is, which pen is in
/// use); `forget()` drops that whenever something else (curses, a shell) wrote to the screen.
struct FrameWriter<Moves: CursorMoves> {
    let moves: Moves
    /// Colours the terminal shows (0 when colours are off), as `CursesPalette.fit` takes them.
    let colors: Int
    /// Whether the bottom-right cell may be written: on a terminal that wraps on its last column
    /// it would scroll the screen.
    let writesBottomRight: Bool
    /// Whether erased cells take the pen's background (`bce`); else only cells of the default
    /// background are erased rather than written.
    let erasesWithBackground: Bool
    private var cursor: Point?
    private var pen: Pen?
    /// Whether the terminal shows its cursor; nil when not known. Curses hid it at the start.
    private var cursorShown: Bool? = false
    /// Styles met in this run of the dashboard, fitted: a frame uses a handful.
    private var fitted: [Style: Pen] = [:]

    init(moves: Moves, colors: Int, writesBottomRight: Bool, erasesWithBackground: Bool) {
        self.moves = moves
        self.colors = colors
        self.writesBottomRight = writesBottomRight
        self.erasesWithBackground = erasesWithBackground
    }

    /// Whatever the terminal shows, the cursor's place and the pen are not known any more.
    mutating func forget() {
        cursor = nil
        pen = nil
        cursorShown = nil
    }

    /// Leaves the terminal's cursor at `point` and shown (the frame's `cursor`: a text field's
    /// insertion point), or hidden when nil or off the screen of `size`. Typing at the end of a
    /// field then costs the character alone: writing it moved the cursor to the next insertion
    /// point already.
    mutating func place(cursor point: Point?, on size: Size, into bytes: inout [UInt8]) {
        guard let point, point.x >= 0, point.y >= 0, point.x < size.width, point.y < size.height else {
            if cursorShown != false, let hide = moves.hideCursor {
                bytes += hide
                cursorShown = false
            }
            return
        }
        if cursor != point {
            bytes += moves.shortest(from: cursor, to: point)
            cursor = point
        }
        if cursorShown != true, let show = moves.showCursor {
            bytes += show
            cursorShown = true
        }
    }

    /// The bytes that turn the screen, which shows the frame before, into `frame`; `changes` are
    /// its changed runs (`Buffer.changes(since:)`). Appended to `bytes`.
    mutating func write(_ changes: [CellRun], frame: Buffer, into bytes: inout [UInt8]) {
        let size = frame.size
        for run in changes {
            let y = run.origin.y
            var index = run.cells.startIndex
            // Blanks before this index were found not worth erasing: they are written, and not
            // weighed again cell by cell (which made a long stretch of them quadratic).
            var blanksWritten = index
            while index < run.cells.endIndex {
                let cell = run.cells[index]
                let x = run.origin.x + (index - run.cells.startIndex)
                if index >= blanksWritten, cell.glyph == .space {
                    let count = run.cells[index...].prefix { $0 == cell }.count
                    if erase(count, of: cell, at: Point(x: x, y: y), runGoesOn: index + count < run.cells.endIndex, into: &bytes) {
                        index += count
                        continue
                    }
                    blanksWritten = index + count
                }
                index += 1
                if cell.isContinuation { continue }
                if !writesBottomRight, x == size.width - 1, y == size.height - 1 { continue }
                let wide = x + 1 < size.width && frame[x + 1, y].isContinuation
                put(cell, at: Point(x: x, y: y), wide: wide, frame: frame, into: &bytes)
            }
        }
    }

    /// Erases `count` blanks of `blank`'s style from `point` (the cursor stays) when erasing shows
    /// them as written (no reverse or underline, which an erased cell does not take; a default
    /// background, or a terminal that erases with the background in use) and is shorter than
    /// writing them; returns whether it did.
    private mutating func erase(_ count: Int, of blank: Cell, at point: Point, runGoesOn: Bool, into bytes: inout [UInt8]) -> Bool {
        let cellPen = pen(for: blank.style)
        guard count > 4, cellPen.attributes.isDisjoint(with: [.reverse, .underline]),
              cellPen.background == -1 || erasesWithBackground, let erase = moves.erase(count) else { return false }
        let end = Point(x: point.x + count, y: point.y)
        let onward = runGoesOn ? moves.shortest(from: point, to: end).count : 0
        guard erase.count + onward < count else { return false }
        if cursor != point { bytes += moves.shortest(from: cursor, to: point) }
        if let sequence = cellPen.sequence(from: pen) { bytes += sequence }
        pen = cellPen
        bytes += erase
        cursor = point
        return true
    }

    /// The bytes that leave the terminal's attributes as they were before the first frame.
    mutating func reset(into bytes: inout [UInt8]) {
        if let sequence = Pen.plain.sequence(from: pen) { bytes += sequence }
        pen = .plain
    }

    private mutating func put(_ cell: Cell, at point: Point, wide: Bool, frame: Buffer, into bytes: inout [UInt8]) {
        let cellPen = pen(for: cell.style)
        if cursor != point {
            bytes += moves.shortest(from: cursor, to: point, through: rewritten(from: cursor, to: point, frame: frame))
        }
        if let sequence = cellPen.sequence(from: pen) { bytes += sequence }
        pen = cellPen
        let columns = Self.appendText(of: cell.glyph, to: &bytes)
        switch (columns, wide) {
        case (1, false), (2, true):
            cursor = Point(x: point.x + columns, y: point.y)
        case (1, true):
            // Where `DisplayWidth` says 2 columns but the C library 1 (e.g. "❤️"), the terminal
            // leaves the next column alone and an old glyph could stay there: blank it.
            bytes.append(UInt8(ascii: " "))
            cursor = Point(x: point.x + 2, y: point.y)
        default:
            cursor = nil  // the terminal moves its own way: the next cell is addressed
        }
        // On the last column the cursor waits to wrap: where it is depends on the terminal.
        if let at = cursor, at.x >= frame.size.width { cursor = nil }
    }

    /// The text of the cells between the cursor and `point` on its row, when writing it again is
    /// a move: every cell there is on the screen as it is in `frame` (unchanged, or written
    /// earlier in this frame), so only plain one-column ASCII in the pen in use qualifies.
    private mutating func rewritten(from cursor: Point?, to point: Point, frame: Buffer) -> [UInt8]? {
        guard let cursor, let pen, cursor.y == point.y, cursor.x < point.x, point.x - cursor.x < 8 else { return nil }
        var text: [UInt8] = []
        for x in cursor.x..<point.x {
            let cell = frame[x, point.y]
            guard cell.glyph.count == 1, let value = cell.glyph.base?.value, value >= 0x20, value < 0x7F,
                  self.pen(for: cell.style) == pen else { return nil }
            text.append(UInt8(value))
        }
        return text
    }

    private mutating func pen(for style: Style) -> Pen {
        if let known = fitted[style] { return known }
        let pen = Pen(CursesPalette.fit(style, colors: colors))
        fitted[style] = pen
        return pen
    }

    /// Appends the glyph as UTF-8 and returns the columns the C library gives it (what the
    /// terminal is expected to advance by): its first scalar and the marks that follow (scalars
    /// with a width of their own are dropped, as curses drops them). A control character, which
    /// nothing should have let into a cell, is shown as U+FFFD, never sent.
    static func appendText(of glyph: Glyph, to bytes: inout [UInt8]) -> Int {
        var columns = 1
        var first = true
        glyph.forEachValue { value in
            let safe = value >= 0x20 && !(0x7F...0x9F).contains(value)
            if first {
                first = false
                let shown = safe ? value : 0xFFFD
                columns = Int(tc_columns(shown))
                append(shown, to: &bytes)
            } else if safe, tc_columns(value) == 0 {
                append(value, to: &bytes)
            }
        }
        return columns
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return append(0xFFFD, to: &bytes) }
        if let encoded = UTF8.encode(scalar) { bytes.append(contentsOf: encoded) }
    }
}
