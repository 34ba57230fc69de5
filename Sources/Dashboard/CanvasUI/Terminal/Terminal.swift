import CanvasCore

/// Where frames are shown and input comes from: ncurses in the app, a headless buffer in tests.
@MainActor
public protocol Terminal: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Waits for input and returns everything that is pending; `nil` when input has ended.
    func nextInputs() async -> [InputEvent]?
    /// Shows the changed runs of the new frame; `frame` is the whole new frame.
    func present(_ changes: [CellRun], frame: Buffer)
}
