#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Threads

/// Plain HTTP/1.1 over a unix socket, for the local server: what the dashboard uses on a usual
/// start, so it never loads libcurl, whose thirty libraries and TLS initialisers cost ~8 MB of
/// resident memory (issue 28; `docs/benchmarks.md`). Servers over the network keep `CurlEngine`
/// (TLS, proxies, name resolution).
///
/// Shaped like `CurlEngine`: one worker thread owns every connection and sleeps in `poll` until a
/// socket is ready, a deadline comes or a caller wakes it through a pipe, so an idle client (an
/// open event stream included) costs no CPU. Connections are kept alive and reused (at most
/// `maxConnections` open, further requests wait for one); a request sent on a kept connection the
/// server had closed meanwhile goes once more on a new one, as libcurl does. Timeouts are the
/// exchange's: the total, the connect, and the idle timeout of event streams. The response is
/// read by `ResponseParser`; anything it cannot read ends the request with `.unreachable`, saying
/// why, never a trap.
final class SocketEngine: TransferEngine, @unchecked Sendable {
    private struct Queue {
        var incoming: [SocketTransfer] = []
        var cancelled: [UInt64] = []
        var stopping = false
    }

    private let queue = Mutex(Queue())
    private let socketPath: String
    private let maxConnections: Int
    /// A pipe whose read end the worker polls; callers write a byte to wake it. Closed by the worker.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// Worker thread only: transfers on a connection, those waiting for one, kept connections.
    private var active: [UInt64: SocketTransfer] = [:]
    private var waiting: [SocketTransfer] = []
    private var idle: [Int32] = []
    /// Set once the worker is ending: a finished transfer then lets no waiting one start.
    private var ending = false
    private var readBuffer = [UInt8](repeating: 0, count: 16 << 10)

    /// Nil when the process has no file descriptors left for the wake-up pipe.
    init?(socketPath: String, maxConnections: Int) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.socketPath = socketPath
        self.maxConnections = max(1, maxConnections)
        DetachedThread.start { [self] in run() }
    }

    // MARK: - Any thread

    func submit(id: UInt64, exchange: Exchange, sink: TransferSink) {
        let transfer = SocketTransfer(id: id, exchange: exchange, sink: sink)
        let queued = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.incoming.append(transfer)
            wake()
            return true
        }
        if !queued { sink.deliver(.failure(.cancelled)) }
    }

    func cancel(_ id: UInt64) {
        queue.withLock { queue in
            guard !queue.stopping else { return }
            queue.cancelled.append(id)
            wake()
        }
    }

    func shutDown() {
        queue.withLock { queue in
            guard !queue.stopping else { return }
            queue.stopping = true
            wake()
        }
    }

    /// Under the queue's lock, while not stopping (the worker closes the pipe after it stopped).
    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes the worker
    }

    // MARK: - Worker thread

    private func run() {
        while true {
            let work = queue.withLock { queue in
                defer {
                    queue.incoming.removeAll()
                    queue.cancelled.removeAll()
                }
                return (incoming: queue.incoming, cancelled: queue.cancelled, stopping: queue.stopping)
            }
            if work.stopping {
                for transfer in work.incoming { transfer.sink.deliver(.failure(.cancelled)) }
                break
            }
            waiting += work.incoming
            for id in work.cancelled {
                if let transfer = active[id] {
                    finish(transfer, .failure(.cancelled), keeping: false)
                } else if let index = waiting.firstIndex(where: { $0.id == id }) {
                    waiting.remove(at: index).sink.deliver(.failure(.cancelled))
                }
            }
            startWaiting()
            wait(timeout: expire())
        }
        ending = true
        for transfer in Array(active.values) + waiting { finish(transfer, .failure(.cancelled), keeping: false) }
        for fd in idle { close(fd) }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Gives waiting transfers a connection while fewer than `maxConnections` are in use.
    private func startWaiting() {
        while !ending, !waiting.isEmpty, active.count < maxConnections {
            let transfer = waiting.removeFirst()
            if let reused = takeIdleConnection() {
                transfer.begin(on: reused, reused: true)
                active[transfer.id] = transfer
            } else {
                connect(transfer)
            }
        }
    }

    /// A kept connection the server has not closed (a closed one polls readable), or nil.
    private func takeIdleConnection() -> Int32? {
        while let fd = idle.popLast() {
            var check = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&check, 1, 0) == 0 { return fd }
            close(fd)
        }
        return nil
    }

    private func connect(_ transfer: SocketTransfer) {
        switch UnixConnection.open(socketPath) {
        case .success(let connection):
            transfer.begin(on: connection.fd, reused: false, connecting: connection.inProgress)
            active[transfer.id] = transfer
        case .failure(let error):
            transfer.sink.deliver(.failure(error))
        }
    }

    /// Ends, with `.timeout`, the transfers past one of their deadlines; returns how long the
    /// worker may sleep before the next one (milliseconds, -1 for no deadline at all).
    private func expire() -> Int32 {
        let now = ContinuousClock.now
        var next: ContinuousClock.Instant?
        for transfer in Array(active.values) {
            guard let deadline = transfer.nextDeadline else { continue }
            if deadline <= now {
                finish(transfer, .failure(.timeout), keeping: false)
            } else {
                next = min(next ?? deadline, deadline)
            }
        }
        guard let next else { return -1 }
        // Rounded up, so the worker does not wake a moment early and sleep again for nothing.
        return Int32(clamping: now.duration(to: next).milliseconds() + 1)
    }

    /// Sleeps until a socket is ready, a caller wakes the worker or `timeout` passes, then
    /// moves every ready transfer on.
    private func wait(timeout: Int32) {
        let transfers = Array(active.values)
        let kept = idle
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        fds += transfers.map { pollfd(fd: $0.fd, events: $0.wantsToWrite ? Int16(POLLOUT) : Int16(POLLIN), revents: 0) }
        fds += kept.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), timeout) > 0 else { return }
        if fds[0].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &drain, drain.count) > 0 {}
        }
        // A kept connection that polls readable was closed by the server (or sent what no request
        // asked for): either way it cannot be used again. Closed before any transfer moves on, so
        // no descriptor number is closed after a new connection took it.
        let closedKept = Set(fds.suffix(kept.count).filter { $0.revents != 0 }.map(\.fd))
        idle.removeAll { fd in
            guard closedKept.contains(fd) else { return false }
            close(fd)
            return true
        }
        for (transfer, ready) in zip(transfers, fds.dropFirst()) where ready.revents != 0 {
            guard active[transfer.id] === transfer else { continue }
            step(transfer)
        }
    }

    /// Moves a transfer whose socket is ready on: writes what is left of its request, or reads.
    private func step(_ transfer: SocketTransfer) {
        let progress = transfer.wantsToWrite ? transfer.write() : transfer.read(into: &readBuffer)
        switch progress {
        case .going:
            break
        case .done(let response, let keeping):
            finish(transfer, .success(response), keeping: keeping)
        case .failed(let error):
            finish(transfer, .failure(error), keeping: false)
        case .staleConnection:
            // The server closed the kept connection before this request reached it: once more on a new one.
            close(transfer.fd)
            active[transfer.id] = nil
            transfer.reset()
            waiting.insert(transfer, at: 0)
        }
    }

    /// Takes a transfer off its connection (kept for the next request when `keeping` and there is
    /// room), hands over its result, and lets a waiting transfer start.
    private func finish(_ transfer: SocketTransfer, _ outcome: Result<HTTPClient.Response, HTTPClientError>, keeping: Bool) {
        if transfer.fd >= 0 {
            if keeping, idle.count < maxConnections { idle.append(transfer.fd) } else { close(transfer.fd) }
        }
        active[transfer.id] = nil
        waiting.removeAll { $0 === transfer }
        transfer.sink.deliver(outcome)
        startWaiting()
    }
}
