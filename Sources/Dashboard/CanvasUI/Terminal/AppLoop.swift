import CanvasCore
import Dispatch

/// The event-driven loop: input and the results of the host's IO are handled as they come, on
/// the main actor; a frame is composed and only what changed is written once they are handled.
/// The host draws again only the panes that changed, and says which rows they cover: only those
/// are compared with the screen's copy, so a key costs what it changed, not the canvas's size.
///
/// Nothing runs between events: no timer, no polling, so an idle dashboard costs nothing. Events
/// that arrive together are all handled before one frame is drawn, not a frame each: the keys of
/// one read (a pasted line, keys typed faster than they are drawn) are drawn as soon as they are
/// handled, in the same turn; messages (a burst of data as the dashboard starts) are drawn by a
/// main-queue job queued behind them.
@MainActor
public enum AppLoop {
    /// - Parameter afterFirstFrame: Runs once the first frame is on the screen: the place for
    ///   start-up work that must not delay it.
    public static func run(_ host: CanvasHost, on terminal: some Terminal, afterFirstFrame: () -> Void = {}) async {
        let loop = Loop(host: host, terminal: terminal)
        host.perform(host.update(.input(.resize(terminal.size))))
        loop.render()
        afterFirstFrame()
        await loop.run()
    }
}

/// One run of the loop: what is on the screen, and whether it has ended.
@MainActor
private final class Loop<T: Terminal> {
    let host: CanvasHost
    let terminal: T
    /// The frame on the screen; nil when the terminal's copy of the screen cannot be trusted
    /// (after a resize), so the next frame is sent whole. A terminal starts blank, so blank
    /// cells of the first frame need not be sent.
    private var screen: Buffer?
    /// The rows the host says changed are counted from its last frame, which before the first
    /// frame of this loop was never on this terminal: that one compares every row.
    private var isFirstFrame = true
    private var frameQueued = false
    private var ended: CheckedContinuation<Void, Never>?
    private var listening: Task<Void, Never>?

    init(host: CanvasHost, terminal: T) {
        self.host = host
        self.terminal = terminal
        screen = Buffer(size: terminal.size)
    }

    func render() {
        let (frame, changed) = host.composeChanges()
        let rows = isFirstFrame ? .all(frame.size.height) : changed
        isFirstFrame = false
        if screen?.size == frame.size, let runs = screen?.catchUp(to: frame, in: rows) {
            terminal.present(runs, frame: frame)
        } else {
            terminal.present(frame.changes(since: nil), frame: frame)
            screen = frame
        }
        if host.isLoading { host.perform(host.update(.frameShown(at: .now))) }
    }

    /// Returns when input ends or the host quits.
    func run() async {
        await withCheckedContinuation { continuation in
            ended = continuation
            terminal.startInput { [self] inputs in take(inputs) }
            let messages = host.mailbox.messages
            listening = Task { [self] in
                for await message in messages { take(message) }
            }
        }
        listening?.cancel()
        host.mailbox.close()
    }

    private func take(_ inputs: [InputEvent]?) {
        guard ended != nil else { return }
        guard let inputs else {
            render()  // what came just before, if its frame was still queued
            return end()
        }
        // A resize cuts the terminal's copy of the screen to what fits, and a later one back to
        // the frame's size does not restore it: the next frame is sent whole.
        if inputs.contains(where: { if case .resize = $0 { true } else { false } }) { screen = nil }
        for input in inputs where !host.shouldQuit { host.perform(host.update(.input(input))) }
        if host.shouldQuit { return end() }
        render()
    }

    private func take(_ message: HostMessage) {
        if case .drawn(let signal) = message {
            // A frame queued is on the main queue already: this runs after it.
            return frameQueued && ended != nil ? DispatchQueue.main.async { signal.release() } : signal.release()
        }
        guard ended != nil else { return }
        host.perform(host.update(message))
        handled()
    }

    private func handled() {
        if host.shouldQuit { return end() }
        guard !frameQueued else { return }
        frameQueued = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.frameQueued = false
                guard self.ended != nil else { return }
                self.render()
            }
        }
    }

    private func end() {
        ended?.resume()
        ended = nil
    }
}
