import MainLoop

#if canImport(Glibc)
import Glibc
#endif

/// Why the terminal's input handler runs.
enum Wake: Sendable {
    /// The terminal has bytes to read.
    case input
    case resize
    /// SIGTERM, SIGINT or SIGHUP arrived.
    case terminate
}

/// The terminal and the signal pipe watched by the main thread's loop (`MainLoop`), so a key is
/// read, handled and drawn on the thread that saw it come: no thread of our own, no hand-over
/// between threads, and nothing runs while nothing happens.
@MainActor
final class InputSources {
    /// The write end of the pipe that the C signal handlers write to.
    let signalFD: Int32
    private let signalReadFD: Int32
    private var watched: [Int32] = []

    /// Makes the signal pipe; `start` begins watching.
    /// - Throws: `NcursesError.pipeFailed` when the signal pipe cannot be created.
    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw NcursesError.pipeFailed(errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        signalReadFD = fds[0]
        signalFD = fds[1]
    }

    /// Calls `wake` on the main actor whenever `terminalFD` is readable or a signal came.
    func start(terminalFD: Int32, wake: @escaping @MainActor (Wake) -> Void) {
        MainLoop.shared.watch(terminalFD) { wake(.input) }
        let readFD = signalReadFD
        MainLoop.shared.watch(readFD) {
            var bytes: InlineArray<64, UInt8> = .init(repeating: 0)
            let count = withUnsafeMutableBytes(of: &bytes) { read(readFD, $0.baseAddress, $0.count) }
            let received = (0..<max(0, count)).map { bytes[$0] }
            if received.contains(UInt8(ascii: "W")) { wake(.resize) }
            if received.contains(UInt8(ascii: "T")) { wake(.terminate) }
        }
        watched = [terminalFD, readFD]
    }

    /// Stops watching. Safe to call more than once.
    func stop() {
        for fd in watched { MainLoop.shared.stopWatching(fd) }
        watched = []
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
    nonisolated static func probe(_ fd: Int32) -> Probe {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return errno == EINTR ? .quiet : .hungUp }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .hungUp }
        return entry.revents & Int16(POLLIN) != 0 ? .readableButEmpty : .quiet
    }
}
