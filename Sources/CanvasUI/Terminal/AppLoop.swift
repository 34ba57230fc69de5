import CanvasCore

/// The event-driven loop: wait for input, update, compose, write only what changed.
///
/// Nothing runs between inputs: no timer, no polling, so an idle dashboard costs nothing.
@MainActor
public enum AppLoop {
    public static func run(_ host: CanvasHost, on terminal: some Terminal) async {
        var previous: Buffer?
        func render() {
            let frame = host.compose()
            terminal.present(frame.changes(since: previous), frame: frame)
            previous = frame
        }
        host.handle(.resize(terminal.size))
        render()
        while !host.shouldQuit, let inputs = await terminal.nextInputs() {
            for input in inputs {
                host.handle(input)
                if host.shouldQuit { return }
            }
            render()
        }
    }
}
