import CanvasCore
import Synchronization

/// The event-driven loop: wait for input or for a result of the host's IO, update, compose,
/// write only what changed.
///
/// Nothing runs between events: no timer, no polling, so an idle dashboard costs nothing. Events
/// that arrive together (a burst of data as the dashboard starts, a pasted line) are all handled
/// before one frame is drawn, not a frame each.
@MainActor
public enum AppLoop {
    private enum Event {
        case inputs([InputEvent])
        case message(HostMessage)
        case inputEnded
    }

    /// - Parameter afterFirstFrame: Runs once the first frame is on the screen: the place for
    ///   start-up work that must not delay it.
    public static func run(_ host: CanvasHost, on terminal: some Terminal, afterFirstFrame: () -> Void = {}) async {
        // A terminal starts blank, so blank cells of the first frame need not be sent.
        var previous: Buffer? = Buffer(size: terminal.size)
        // Frames are drawn into two buffers in turn: the one not on screen is reused.
        var spare = Buffer(size: .zero)
        func render() {
            var frame = spare
            spare = Buffer(size: .zero)
            host.compose(into: &frame)
            terminal.present(frame.changes(since: previous), frame: frame)
            if let previous { spare = previous }
            previous = frame
        }
        host.perform(host.update(.input(.resize(terminal.size))))
        render()
        afterFirstFrame()

        let (events, continuation) = AsyncStream<Event>.makeStream()
        // Events queued and not yet handled; counted before each is queued, so a frame is drawn
        // only when none is waiting.
        let queued = Atomic<Int>(0)
        @Sendable func queue(_ event: Event) {
            queued.add(1, ordering: .sequentiallyConsistent)
            continuation.yield(event)
        }
        let reading = Task { @MainActor in
            while let inputs = await terminal.nextInputs() { queue(.inputs(inputs)) }
            queue(.inputEnded)
        }
        let listening = Task { @MainActor in
            for await message in host.effects.messages { queue(.message(message)) }
        }
        defer {
            reading.cancel()
            listening.cancel()
        }
        for await event in events {
            queued.subtract(1, ordering: .sequentiallyConsistent)
            switch event {
            case .inputs(let inputs):
                // A resize cuts the terminal's copy of the screen to what fits, and a later one back
                // to the frame's size does not restore it: the next frame is sent whole.
                if inputs.contains(where: { if case .resize = $0 { true } else { false } }) { previous = nil }
                for input in inputs where !host.shouldQuit { host.perform(host.update(.input(input))) }
            case .message(let message):
                host.perform(host.update(message))
            case .inputEnded:
                render()  // what came just before, if it was waiting for this event to be handled
                return
            }
            if host.shouldQuit { return }
            if queued.load(ordering: .sequentiallyConsistent) == 0 { render() }
        }
    }
}
