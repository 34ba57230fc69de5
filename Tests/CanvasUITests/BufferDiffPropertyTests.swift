import CanvasCore
import CanvasStyle
import TestSupport
import CanvasUI
import Testing

@MainActor
@Suite("Buffer.changes(since:): applying the runs reproduces the new frame")
struct BufferDiffPropertyTests {
    static let pieces = ["a", "b", "z", " ", "日", "本", "🙂", "e\u{301}", "─", "🇫🇷"]
    static let styles = [Style.plain, Style(attributes: .bold), Style(foreground: .palette(75)), Style(background: .ansi(1))]

    /// Scribbles `count` random strings over `buffer`, some clipped, some off the edges.
    static func scribble(_ buffer: inout Buffer, count: Int, using rng: inout SplitMix64) {
        let size = buffer.size
        for _ in 0..<count {
            let text = (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let point = Point(x: Int.random(in: -2...size.width, using: &rng), y: Int.random(in: 0..<size.height, using: &rng))
            let style = styles.randomElement(using: &rng)!
            let clip: Rect? = Bool.random(using: &rng) ? nil : Rect(
                x: Int.random(in: 0..<size.width, using: &rng), y: 0,
                width: Int.random(in: 1...size.width, using: &rng), height: size.height
            )
            buffer.write(text, at: point, style: style, clip: clip)
        }
    }

    /// A random frame, and the next one: the same scribbled over (one time in ten a blank one,
    /// when `sometimesBlank`).
    static func frames(upTo height: Int, sometimesBlank: Bool, using rng: inout SplitMix64) -> (previous: Buffer, next: Buffer) {
        let size = Size(width: Int.random(in: 1...14, using: &rng), height: Int.random(in: 1...height, using: &rng))
        var previous = Buffer(size: size)
        scribble(&previous, count: Int.random(in: 0...8, using: &rng), using: &rng)
        var next = sometimesBlank && Int.random(in: 0..<10, using: &rng) == 0 ? Buffer(size: size) : previous
        scribble(&next, count: Int.random(in: 0...4, using: &rng), using: &rng)
        return (previous, next)
    }

    @Test func runsTurnThePreviousFrameIntoTheNextOne() {
        var rng = SplitMix64(seed: 0x7E57_CA1D)
        for _ in 0..<500 {
            let (previous, next) = Self.frames(upTo: 4, sometimesBlank: true, using: &rng)
            let size = previous.size

            let terminal = HeadlessTerminal(size: size)
            terminal.present(previous.changes(since: nil), frame: previous)
            #expect(terminal.screen == previous)
            let written = terminal.cellsWritten
            let runs = next.changes(since: previous)
            terminal.present(runs, frame: next)
            #expect(terminal.screen == next, "\(previous.lines) → \(next.lines)")

            let changedCells = zip(previous.cells, next.cells).filter { $0 != $1 }.count
            #expect(terminal.cellsWritten - written >= changedCells)
            #expect(terminal.cellsWritten - written <= changedCells * 2, "only changes (and their wide halves) are sent")
            for run in runs {
                #expect(run.cells.first?.isContinuation == false, "a run starts on the right half of a wide character")
            }
            let starts = runs.map { $0.origin.y * size.width + $0.origin.x }
            let ends = runs.map { $0.origin.y * size.width + $0.origin.x + $0.cells.count }
            #expect(zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 }, "runs overlap or are out of order")
        }
    }

    @Test func theScreensCopyCatchesUpWithTheRowsThatChanged() {
        var rng = SplitMix64(seed: 0xC47C)
        for _ in 0..<300 {
            let (previous, next) = Self.frames(upTo: 5, sometimesBlank: false, using: &rng)
            let size = previous.size
            // The rows that changed, and some that did not, as the host says.
            var rows = DamagedRows()
            for y in 0..<size.height where (0..<size.width).contains(where: { previous[$0, y] != next[$0, y] }) || Bool.random(using: &rng) {
                rows.insert(y..<(y + 1))
            }

            let terminal = HeadlessTerminal(size: size)
            terminal.present(previous.changes(since: nil), frame: previous)
            var screen = previous
            let runs = screen.catchUp(to: next, in: rows)
            terminal.present(runs, frame: next)
            #expect(terminal.screen == next)
            #expect(screen == next, "the copy is the frame after")
            #expect(runs == next.changes(since: previous, in: rows))
        }
        var screen = Buffer(size: Size(width: 3, height: 2))
        let frame = Buffer(lines: ["ab", "c"])
        #expect(screen.catchUp(to: frame, in: DamagedRows()) == frame.changes(since: nil), "a resized frame is sent whole")
        #expect(screen == frame)
    }

    @Test func aResizedFrameIsSentWhole() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<50 {
            var previous = Buffer(size: Size(width: Int.random(in: 1...10, using: &rng), height: 3))
            Self.scribble(&previous, count: 4, using: &rng)
            var next = Buffer(size: Size(width: Int.random(in: 1...10, using: &rng), height: 2))
            Self.scribble(&next, count: 4, using: &rng)
            let terminal = HeadlessTerminal(size: previous.size)
            terminal.present(previous.changes(since: nil), frame: previous)
            terminal.present(next.changes(since: previous), frame: next)
            #expect(terminal.screen == next)
        }
    }
}
