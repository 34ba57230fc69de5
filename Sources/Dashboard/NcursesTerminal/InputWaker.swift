import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why the input thread woke the main actor.
enum Wake: Sendable {
    /// The terminal has bytes to read; call `drained()` once they are read.
    case input
    case resize
    /// SIGTERM, SIGINT or SIGHUP arrived, or the terminal went away (hung up or closed).
    case terminate
}

/// A dedicated thread that blocks in `poll()` on the terminal and a signal pipe, and wakes the
/// main actor only when something happened: no timer, no polling loop, zero CPU when idle.
final class InputWaker: Sendable {
    let wakes: AsyncStream<Wake>
    /// The write end of the pipe that the C signal handlers write to.
    let signalFD: Int32
    private let drainedSemaphore = DispatchSemaphore(value: 0)

    /// Starts the input thread.
    /// - Parameter terminalFD: The terminal to wait on (standard input).
    /// - Throws: `NcursesError.pipeFailed` when the signal pipe cannot be created.
    init(terminalFD: Int32) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw NcursesError.pipeFailed(errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        signalFD = fds[1]
        let (stream, continuation) = AsyncStream<Wake>.makeStream()
        wakes = stream
        let readFD = fds[0]
        let drained = drainedSemaphore
        let thread = Thread {
            Self.pollLoop(terminalFD: terminalFD, signalReadFD: readFD, continuation: continuation, drained: drained)
        }
        thread.name = "termcanvas-input"
        thread.start()
    }

    /// Lets the input thread poll the terminal again after the main actor has read it dry.
    func drained() {
        drainedSemaphore.signal()
    }

    /// What the terminal looks like right after its input was read dry.
    enum Probe: Equatable {
        /// Nothing to read: the usual state.
        case quiet
        /// Still readable although nothing could be read: end of file or an error such as EIO,
        /// or a key that arrived just now.
        case readableButEmpty
        /// Hung up, failed or closed.
        case hungUp
    }

    /// Polls `fd` without waiting.
    static func probe(_ fd: Int32) -> Probe {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return errno == EINTR ? .quiet : .hungUp }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .hungUp }
        return entry.revents & Int16(POLLIN) != 0 ? .readableButEmpty : .quiet
    }

    private static func pollLoop(
        terminalFD: Int32, signalReadFD: Int32, continuation: AsyncStream<Wake>.Continuation, drained: DispatchSemaphore
    ) {
        var fds = [pollfd(fd: terminalFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signalReadFD, events: Int16(POLLIN), revents: 0)]
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                continuation.yield(.terminate)
                continuation.finish()
                return
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let count = read(signalReadFD, &bytes, bytes.count)
                let received = bytes.prefix(max(0, count))
                if received.contains(UInt8(ascii: "W")) { continuation.yield(.resize) }
                if received.contains(UInt8(ascii: "T")) { continuation.yield(.terminate) }
            }
            // A hung-up terminal reports POLLIN together with POLLHUP, so the hang-up is checked
            // first: otherwise every poll returns at once with nothing to read, at full CPU.
            let terminal = fds[0].revents
            if terminal & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                continuation.yield(.terminate)
                continuation.finish()
                return
            }
            if terminal & Int16(POLLIN) != 0 {
                continuation.yield(.input)
                drained.wait()
            }
        }
    }
}
