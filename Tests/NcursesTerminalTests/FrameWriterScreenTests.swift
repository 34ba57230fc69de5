import CNcursesw
import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
@testable import NcursesTerminal
import TestSupport
import Testing

/// The frame writer's bytes read by a terminal emulator (pyte): after every frame, the screen it
/// builds must be the frame, cell by cell, text, colours and attributes, for the terminal types
/// people run the dashboard in. Serialized: terminfo is one per process.
@Suite(.serialized)
struct FrameWriterScreenTests {
    static let size = Size(width: 48, height: 14)

    @Test(arguments: ["xterm-256color", "tmux-256color", "screen", "linux", "xterm"])
    func randomFramesShowOnTheEmulatedScreen(terminal: String) async throws {
        let colors = try #require(Self.colors[terminal])
        var writer = try Self.writer(for: terminal, colors: colors)
        var random = SplitMix64(seed: 43)
        var frame = Buffer(size: Self.size)
        var previous: Buffer? = frame
        var frames: [EmulatedFrame] = []
        for _ in 0..<40 {
            for _ in 0..<Int.random(in: 1...6, using: &random) { Self.scribble(on: &frame, colors: colors, using: &random) }
            var bytes: [UInt8] = []
            writer.write(frame.changes(since: previous), frame: frame, into: &bytes)
            frames.append(EmulatedFrame(bytes: bytes, frame: frame, colors: colors))
            previous = frame
        }
        let verdict = try await Emulator.check(frames, size: Self.size)
        #expect(verdict == "same", "\(terminal)")
    }

    /// After a frame the pen is left as the last cell's: the next frame starts from it, and
    /// the bytes of a one-cell change are only its move, its attributes and its text.
    @Test func aChangeCostsItsMoveAttributesAndText() async throws {
        var writer = try Self.writer(for: "xterm-256color", colors: 256)
        var frame = Buffer(size: Self.size)
        frame.write("plain text", at: Point(x: 2, y: 3), style: .plain)
        var first: [UInt8] = []
        writer.write(frame.changes(since: Buffer(size: Self.size)), frame: frame, into: &first)
        let before = frame
        frame.write("x", at: Point(x: 7, y: 3), style: Style(foreground: .palette(75), attributes: .bold))
        var second: [UInt8] = []
        writer.write(frame.changes(since: before), frame: frame, into: &second)
        // From after "plain text" (12, 3) back to column 7: ESC [ 8 G, four bytes (five ^H, or
        // the address ESC [ 4 ; 8 H, are longer); then bold and the colour, without a reset.
        #expect(String(decoding: second, as: UTF8.self) == "\u{1B}[8G\u{1B}[1;38;5;75mx")
        let frames = [EmulatedFrame(bytes: first, frame: before, colors: 256), EmulatedFrame(bytes: second, frame: frame, colors: 256)]
        #expect(try await Emulator.check(frames, size: Self.size) == "same")
    }

    /// Typing in a field shows the terminal's own cursor at the insertion point: a character
    /// typed at the end is sent alone (the terminal moved its cursor past it), a cursor move is
    /// a move, and the cursor is hidden again when no field has the keys.
    @Test func typingSendsTheCharacterAloneAndTheCursorFollows() async throws {
        var writer = try Self.writer(for: "xterm-256color", colors: 256)
        var frame = Buffer(size: Self.size)
        func present(_ change: (inout Buffer) -> Void) -> String {
            let before = frame
            change(&frame)
            var bytes: [UInt8] = []
            writer.write(frame.changes(since: before), frame: frame, into: &bytes)
            writer.place(cursor: frame.cursor, on: frame.size, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        let opened = present { frame in
            frame.write("> ", at: Point(x: 0, y: 13), style: .plain)
            frame.cursor = Point(x: 2, y: 13)
        }
        #expect(opened.hasSuffix("\u{1B}[?12l\u{1B}[?25h"), "\(opened.debugDescription)")
        for letter in ["a", "b", "c"] {
            let typed = present { frame in
                let at = frame.cursor!
                frame.write(letter, at: at, style: .plain)
                frame.cursor = Point(x: at.x + 1, y: at.y)
            }
            #expect(typed == letter)
        }
        #expect(present { $0.cursor = Point(x: 4, y: 13) } == "\u{08}")
        #expect(present { $0.cursor = Point(x: Self.size.width, y: 13) } == "\u{1B}[?25l", "off the screen: hidden")
        #expect(present { $0.cursor = Point(x: 4, y: 13) } == "\u{1B}[?12l\u{1B}[?25h", "hidden where it was: shown, not moved")
        #expect(present { $0.cursor = nil } == "\u{1B}[?25l")
        #expect(present { _ in } == "")
        writer.forget()
        #expect(present { $0.cursor = Point(x: 2, y: 13) }.hasSuffix("\u{1B}[?12l\u{1B}[?25h"))
    }

    /// A glyph `DisplayWidth` gives two columns and the C library one ("❤️") is followed by a
    /// blank, so no old glyph stays in its second column.
    @Test func aGlyphNarrowerInTheCLibraryIsPaddedWithABlank() async throws {
        var writer = try Self.writer(for: "xterm-256color", colors: 256)
        var frame = Buffer(size: Self.size)
        frame.write("abcdef", at: Point(x: 0, y: 0), style: .plain)
        var first: [UInt8] = []
        writer.write(frame.changes(since: Buffer(size: Self.size)), frame: frame, into: &first)
        let before = frame
        frame[1, 0] = Cell("❤️")
        frame[2, 0] = Cell(.empty)
        var second: [UInt8] = []
        writer.write(frame.changes(since: before), frame: frame, into: &second)
        #expect(String(decoding: second, as: UTF8.self) == "\u{1B}[2G❤️ ")
    }

    /// A row of blanks is erased (`ech`) rather than written, then the cursor moves past it.
    @Test func blanksAreErasedWhenThatIsShorter() async throws {
        var writer = try Self.writer(for: "xterm-256color", colors: 256)
        var frame = Buffer(size: Self.size)
        frame.write(String(repeating: "z", count: 42) + "x", at: Point(x: 0, y: 2), style: .plain)
        var first: [UInt8] = []
        writer.write(frame.changes(since: Buffer(size: Self.size)), frame: frame, into: &first)
        let before = frame
        frame.write(String(repeating: " ", count: 42) + "y", at: Point(x: 0, y: 2), style: .plain)
        var second: [UInt8] = []
        writer.write(frame.changes(since: before), frame: frame, into: &second)
        // Back to the row's start (a carriage return), 42 erased, then past them to the y.
        #expect(String(decoding: second, as: UTF8.self) == "\r\u{1B}[42X\u{1B}[43Gy")
        let frames = [EmulatedFrame(bytes: first, frame: before, colors: 256), EmulatedFrame(bytes: second, frame: frame, colors: 256)]
        #expect(try await Emulator.check(frames, size: Self.size) == "same")
    }

    /// Blanks an erase would not show as written are written: reverse or underlined ones (an
    /// erased cell takes neither). pyte erases with the whole pen, so only the bytes can tell.
    /// (Coloured blanks on a terminal without `bce` are not tested here: no terminfo entry at
    /// hand has `ech` without `bce`.)
    @Test(arguments: [Style(attributes: .reverse), Style(attributes: .underline)])
    func blanksThatAnEraseWouldNotShowAreWritten(style: Style) throws {
        var writer = try Self.writer(for: "xterm-256color", colors: 256)
        var frame = Buffer(size: Self.size)
        frame.write(String(repeating: " ", count: 40), at: Point(x: 2, y: 3), style: style)
        var bytes: [UInt8] = []
        writer.write(frame.changes(since: Buffer(size: Self.size)), frame: frame, into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("X"), "an erase was sent: \(text.debugDescription)")
        #expect(text.hasSuffix(String(repeating: " ", count: 40)), "\(text.debugDescription)")
    }

    /// Nothing that is not text reaches the terminal from a cell, whatever got into it.
    @Test func controlCharactersInACellAreNeverSent() throws {
        var writer = try Self.writer(for: "xterm-256color", colors: 256)
        var frame = Buffer(size: Size(width: 3, height: 1))
        frame[0, 0] = Cell(Glyph("\u{1B}"))
        frame[1, 0] = Cell(Glyph([Unicode.Scalar(0x9B)!]))
        frame[2, 0] = Cell(Glyph(["a", "\u{07}"]))
        var bytes: [UInt8] = []
        writer.write(frame.changes(since: nil), frame: frame, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;1H\u{1B}[m\u{FFFD}\u{FFFD}a")
    }

    static let colors = ["xterm-256color": 256, "tmux-256color": 256, "screen": 8, "linux": 8, "xterm": 8]

    static func writer(for terminal: String, colors: Int) throws -> FrameWriter<Terminfo> {
        _ = tc_setup_locale()
        try #require(tc_use_terminfo(terminal) == 0, "no terminfo entry for \(terminal)")
        let terminfo = try #require(Terminfo(colors: colors), "\(terminal) is driven by curses, not the frame writer")
        return FrameWriter(moves: terminfo, colors: colors, writesBottomRight: terminfo.writesBottomRight,
                           erasesWithBackground: terminfo.erasesWithBackground)
    }

    static let glyphs = ["a", "b", "Z", "0", " ", " ", "-", "─", "│", "·", "é", "中", "日", "e\u{301}"]

    /// Writes a random run of text in a random style somewhere, or fills a rectangle.
    static func scribble(on frame: inout Buffer, colors: Int, using random: inout SplitMix64) {
        // pyte takes a bright colour (90–97, 100–107) as bold too, which no terminal does:
        // bright colours are drawn only where there are 8 colours (as bold and the base colour).
        let colorChoices: [Color] = [.default, .ansi(1), .ansi(4), .palette(16), .palette(75), .palette(214), .palette(250)]
            + (colors < 16 ? [.ansi(9), .ansi(15)] : [])
        let attributeChoices: [TextAttributes] = [[], [], .bold, .italic, .underline, .reverse, [.bold, .underline], [.reverse, .italic]]
        let style = Style(foreground: colorChoices.randomElement(using: &random)!, background: colorChoices.randomElement(using: &random)!,
                          attributes: attributeChoices.randomElement(using: &random)!)
        let origin = Point(x: Int.random(in: 0..<size.width, using: &random), y: Int.random(in: 0..<size.height, using: &random))
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            // A block restyled, its symbols kept.
            let block = Rect(origin: origin, size: Size(width: 5, height: 2)).intersection(frame.bounds)
            for y in block.minY..<block.maxY {
                for x in block.minX..<block.maxX { frame.fill(Rect(x: x, y: y, width: 1, height: 1), with: Cell(frame[x, y].glyph, style: style)) }
            }
            return
        case 1:
            // A stretch of blanks, which the writer may erase rather than write.
            frame.write(String(repeating: " ", count: Int.random(in: 5...40, using: &random)), at: origin, style: style)
            return
        default:
            break
        }
        let text = (0..<Int.random(in: 1...20, using: &random)).map { _ in glyphs.randomElement(using: &random)! }.joined()
        frame.write(text, at: origin, style: style)
    }
}

/// A frame as the emulator should show it once its bytes are read.
struct EmulatedFrame: Encodable {
    /// The writer's bytes, each as a number.
    let bytes: [UInt8]
    /// Per cell: text, foreground and background numbers (-1 default), bold, italic, underline,
    /// reverse.
    let cells: [[String]]

    init(bytes: [UInt8], frame: Buffer, colors: Int) {
        self.bytes = bytes
        cells = (0..<frame.size.height).flatMap { y in
            (0..<frame.size.width).map { x in
                let cell = frame[x, y]
                // A wide glyph's second column shows the glyph's style, whatever the cell says.
                let style = cell.isContinuation && x > 0 ? frame[x - 1, y].style : cell.style
                let pen = Pen(CursesPalette.fit(style, colors: colors))
                var text: [UInt8] = []
                if !cell.isContinuation { _ = FrameWriter<Terminfo>.appendText(of: cell.glyph, to: &text) }
                let flags: [TextAttributes] = [.bold, .italic, .underline, .reverse]
                return [String(decoding: text, as: UTF8.self), "\(pen.foreground)", "\(pen.background)"]
                    + flags.map { pen.attributes.contains($0) ? "1" : "0" }
            }
        }
    }
}

/// pyte, run by the system's python3 (Debian's python3-pyte, which scripts/install-deps installs).
enum Emulator {
    static let script = #"""
import json, sys, unicodedata
import pyte
from pyte import graphics as g
task = json.load(sys.stdin)
cols, rows = task["cols"], task["rows"]
screen = pyte.Screen(cols, rows)
stream = pyte.ByteStream(screen)
def color(number, ansi, aixterm, base):
    number = int(number)
    if number < 0: return "default"
    if number < 8: return ansi[base + number]
    if number < 16: return aixterm[base + 60 + number - 8]
    return g.FG_BG_256[number]
for index, frame in enumerate(task["frames"]):
    stream.feed(bytes(frame["bytes"]))
    for y in range(rows):
        for x in range(cols):
            text, fg, bg, bold, italic, underline, reverse = frame["cells"][y * cols + x]
            shown = screen.buffer[y][x]
            want = (unicodedata.normalize("NFC", text), color(fg, g.FG_ANSI, g.FG_AIXTERM, 30), color(bg, g.BG_ANSI, g.BG_AIXTERM, 40), bold == "1", italic == "1", underline == "1", reverse == "1")
            got = (unicodedata.normalize("NFC", shown.data), shown.fg, shown.bg, shown.bold, shown.italics, shown.underscore, shown.reverse)
            if want != got:
                print(f"frame {index}, cell {x},{y}: wanted {want}, the screen shows {got}")
                sys.exit(0)
print("same")
"""#

    /// "same", or the first cell that differs.
    static func check(_ frames: [EmulatedFrame], size: Size) async throws -> String {
        struct Task: Encodable {
            let cols: Int
            let rows: Int
            let frames: [EmulatedFrame]
        }
        let input = String(decoding: try JSONEncoder().encode(Task(cols: size.width, rows: size.height, frames: frames)), as: UTF8.self)
        let python = try await interpreter()
        let result = try await Command.run([python, "-c", script], input: input)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func interpreter() async throws -> String {
        for candidate in ["/usr/bin/python3", "python3"] {
            if (try? await Command.run([candidate, "-c", "import pyte"]))?.status == 0 { return candidate }
        }
        throw CommandFailure("no python3 with pyte: install python3-pyte (scripts/install-deps does)")
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
