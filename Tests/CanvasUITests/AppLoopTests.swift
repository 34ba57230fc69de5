import CanvasCore
import CanvasUI
import Synchronization
import Testing

@MainActor
@Suite("AppLoop with a headless terminal")
struct AppLoopTests {
    @Test func scriptedInputEndsWithTheComposedFrameOnScreen() async throws {
        let recorder = Recorder()
        let host = try makeHost(halves, size: Size(width: 10, height: 3), recorder: recorder)
        let terminal = HeadlessTerminal(size: Size(width: 60, height: 20), script: [
            [.key(.tab)],
            [.resize(Size(width: 80, height: 24))],
            [.key(.char("k")), .key(.char("j"))],
        ])
        await AppLoop.run(host, on: terminal)
        #expect(host.size == Size(width: 80, height: 24))
        #expect(terminal.screen.size == Size(width: 80, height: 24))
        #expect(terminal.screen == host.compose())
        #expect(terminal.screen.lines[0] == "┌─ 1 Probe " + String(repeating: "─", count: 28) + "┐┏━ 2 Probe " + String(repeating: "━", count: 28) + "┓")
        #expect(recorder.keys(of: 2) == [.char("k"), .char("j")])
        #expect(!host.shouldQuit)
    }

    @Test func anUnchangedFrameWritesNoCells() async throws {
        let host = try makeHost(halves)
        let terminal = HeadlessTerminal(size: Size(width: 60, height: 20), script: [[.key(.char("k"))], [.key(.char("j"))]])
        await AppLoop.run(host, on: terminal)
        // The first frame sends only what differs from a blank terminal; the later ones nothing.
        #expect(terminal.cellsWritten == Self.nonBlankCells(host.compose()))
        #expect(terminal.screen == host.compose())
    }

    /// Cells of a frame that differ from a blank terminal (runs include whole wide characters).
    static func nonBlankCells(_ frame: Buffer) -> Int {
        frame.changes(since: Buffer(size: frame.size)).reduce(0) { $0 + $1.cells.count }
    }

    @Test func aChangedFrameWritesOnlyTheChangedCells() async throws {
        let host = try makeHost(halves)
        let before = host.compose()
        let terminal = HeadlessTerminal(size: Size(width: 60, height: 20), script: [[.key(.tab)]])
        await AppLoop.run(host, on: terminal)
        let after = host.compose()
        let changed = zip(before.cells, after.cells).filter { $0 != $1 }.count
        #expect(changed > 0)
        #expect(terminal.cellsWritten == Self.nonBlankCells(before) + changed)
        #expect(terminal.screen == after)
    }

    /// Resized smaller and back before a frame is drawn, the terminal keeps only the small corner
    /// of the last frame: the next one, though of the same size as the last, is sent whole.
    @Test func aFrameAfterResizesIsSentWholeEvenAtTheSameSize() async throws {
        let host = try makeHost(halves)
        let terminal = HeadlessTerminal(size: Size(width: 60, height: 20), script: [
            [.key(.char("k"))],
            [.resize(Size(width: 12, height: 5)), .resize(Size(width: 60, height: 20))],
        ])
        await AppLoop.run(host, on: terminal)
        #expect(terminal.screen.lines == host.compose().lines)
    }

    /// What the start's server connection waits for, off the main actor: the cache's answers
    /// posted before it drawn.
    @Test func drawnReturnsOnceWhatWasPostedBeforeIsOnTheScreen() async throws {
        let host = try makeHost(halves)
        let terminal = OpenTerminal(size: Size(width: 60, height: 20))
        let loop = Task { await AppLoop.run(host, on: terminal) }
        let mailbox = host.mailbox
        await mailbox.drawn()
        let framesBefore = terminal.frames.load(ordering: .sequentiallyConsistent)
        let framesWhenDrawn = await Task.detached {
            // Both before the loop wakes: it takes them in one turn.
            mailbox.post(.notice(.info("Answered from the cache")))
            await mailbox.drawn()
            return terminal.frames.load(ordering: .sequentiallyConsistent)
        }.value
        #expect(framesWhenDrawn == framesBefore + 1)
        #expect(terminal.screen.lines.contains { $0.contains("Answered from the cache") })
        terminal.endInput()
        await loop.value
    }

    @Test func drawnReturnsWhenTheLoopHasEndedOrTheWaiterIsCancelled() async throws {
        let host = try makeHost(halves)
        let terminal = OpenTerminal(size: Size(width: 60, height: 20))
        let loop = Task { await AppLoop.run(host, on: terminal) }
        await host.mailbox.drawn()  // the loop runs
        terminal.endInput()
        await loop.value
        await host.mailbox.drawn()  // the message dropped by the ended loop lets it go

        let unread = Mailbox()
        let waiter = Task { await unread.drawn() }
        waiter.cancel()
        await waiter.value
    }

    @Test func quittingStopsReadingInput() async throws {
        let recorder = Recorder()
        let host = try makeHost(halves, recorder: recorder)
        let terminal = HeadlessTerminal(size: Size(width: 60, height: 20), script: [
            [.key(.char("k")), .key(.char("q")), .key(.char("j"))],
            [.key(.char("m"))],
        ])
        await AppLoop.run(host, on: terminal)
        #expect(host.shouldQuit)
        #expect(recorder.keys(of: 1) == [.char("k")])
    }
}

/// A terminal whose input stays open until `endInput`.
@MainActor
private final class OpenTerminal: Terminal {
    /// Frames presented, readable from any thread.
    nonisolated let frames = Atomic<Int>(0)
    private let headless: HeadlessTerminal
    private var handle: (@MainActor ([InputEvent]?) -> Void)?

    init(size: Size) {
        headless = HeadlessTerminal(size: size)
    }

    var size: Size { headless.size }
    var screen: Buffer { headless.screen }

    func startInput(_ handle: @escaping @MainActor ([InputEvent]?) -> Void) {
        self.handle = handle
    }

    func present(_ changes: [CellRun], frame: Buffer) {
        headless.present(changes, frame: frame)
        frames.add(1, ordering: .sequentiallyConsistent)
    }

    func endInput() {
        handle?(nil)
    }
}
