import CanvasCore

/// Where frames are shown and input comes from: ncurses in the app, a headless buffer in tests.
@MainActor
public protocol Terminal: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Starts handing input to `handle`, on the main actor, as it comes: everything pending at
    /// once, then `nil` once when input has ended.
    func startInput(_ handle: @escaping @MainActor ([InputEvent]?) -> Void)
    /// Shows the changed runs of the new frame; `frame` is the whole new frame.
    func present(_ changes: [CellRun], frame: Buffer)
}
