import CanvasCore
import CanvasUI

/// A terminal without a screen, for the app loop's tests: it applies presented changes to its own
/// buffer and replays scripted input.
@MainActor
final class HeadlessTerminal: Terminal {
    private(set) var size: Size
    /// What a real terminal would show after the presented changes.
    private(set) var screen: Buffer
    /// Cells written so far, to check that only changes are sent.
    private(set) var cellsWritten = 0
    private var script: [[InputEvent]]

    init(size: Size, script: [[InputEvent]] = []) {
        self.size = size
        self.screen = Buffer(size: size)
        self.script = script
    }

    /// Hands the script over one batch per turn of the main actor, then ends.
    func startInput(_ handle: @escaping @MainActor ([InputEvent]?) -> Void) {
        Task { @MainActor in
            while !script.isEmpty {
                let batch = script.removeFirst()
                for case .resize(let newSize) in batch {
                    // As curses resizes its copy of the screen: what fits stays, the rest is blank.
                    var resized = Buffer(size: newSize)
                    resized.draw(screen, at: .zero)
                    (size, screen) = (newSize, resized)
                }
                handle(batch)
                await Task.yield()
            }
            handle(nil)
        }
    }

    func present(_ changes: [CellRun], frame: Buffer) {
        if screen.size != frame.size { screen = Buffer(size: frame.size) }
        for run in changes {
            for (offset, cell) in run.cells.enumerated() {
                screen[run.origin.x + offset, run.origin.y] = cell
            }
            cellsWritten += run.cells.count
        }
    }
}
