import CCurl
import Synchronization
import Threads

/// The one place that drives libcurl: a `curl_multi` handle and the one thread that runs it.
///
/// **Why a multi handle.** The multi interface runs any number of transfers at once on one
/// thread, and it owns the connection cache, so every request of a client (and every retry)
/// reuses a kept-alive connection to the BFF instead of connecting anew; the easy interface
/// would need a blocked thread per request. Event streams are just long transfers on the same
/// handle.
///
/// **Why one worker thread.** libcurl handles are not thread-safe: a multi handle and its easy
/// handles must be used from one thread at a time. Owning them on a dedicated thread needs no
/// locks around libcurl at all, and keeps libcurl's blocking wait (`curl_multi_poll`) off Swift's
/// cooperative pool and off the main actor. Callers talk to the thread through a small queue under
/// a mutex and wake it with `curl_multi_wakeup` (the one libcurl call that is safe from other
/// threads); results go back through continuations. When nothing is queued or in flight, the
/// thread sleeps in `curl_multi_poll` (up to an hour, or until libcurl's next timer or a wakeup),
/// so an idle client costs no CPU; an open event stream wakes it only when bytes arrive or its idle
/// timeout runs out.
final class CurlEngine: TransferEngine, @unchecked Sendable {
    private struct Queue {
        var incoming: [Transfer] = []
        var cancelled: [UInt64] = []
        var stopping = false
    }

    /// Shared with callers; `multi` is only woken while `stopping` is false, under this lock, so it
    /// is never woken after the worker cleaned it up.
    private let queue = Mutex(Queue())
    /// The multi handle (`CURLM *`). Used only on the worker thread, except `curl_multi_wakeup`.
    private let multi: UnsafeMutableRawPointer
    /// Worker thread only: the transfers added to `multi`, by id and by easy handle.
    private var active: [UInt64: Transfer] = [:]
    private var byHandle: [UnsafeMutableRawPointer: UInt64] = [:]

    /// The longest the worker sleeps with nothing to do; libcurl's own timers wake it sooner.
    private static let idlePollMilliseconds: Int32 = 3_600_000

    /// Why libcurl cannot be used in this process, or nil once it is loaded and initialised
    /// (`curl_global_init`), which happens once, when the first engine is made. Loading runs
    /// under `loading`'s lock, so `closeForExit` can wait for it.
    static var unavailability: String? {
        loading.withLock { known in
            if let known { return known }
            let problem: String? = if let problem = tc_curl_load() {
                "libcurl could not be loaded: \(String(cString: problem))"
            } else {
                switch tc_curl_global_init(Int(CURL_GLOBAL_ALL)) {
                case CURLE_OK: nil
                case let code: "libcurl failed to initialise (\(code.rawValue))"
                }
            }
            known = .some(problem)
            return problem
        }
    }

    /// Not tried yet (nil), or what `unavailability` found.
    private static let loading = Mutex<String??>(nil)

    /// Waits for a load of libcurl another thread has begun, and refuses any later one. For the
    /// process's end: `exit` runs OpenSSL's clean-up, which crashes a thread still initialising
    /// it (a dashboard quit while it was connecting to its server).
    static func closeForExit() {
        loading.withLock { known in
            if known == nil { known = .some("the process is ending") }
        }
    }

    /// Nil when libcurl is not there (see `unavailability`) or has no memory for a multi handle.
    init?(maxConnectionsPerHost: Int) {
        guard Self.unavailability == nil, let multi = tc_curl_multi_init() else { return nil }
        self.multi = multi
        let perHost = max(1, maxConnectionsPerHost)
        _ = tc_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        _ = tc_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 2 * perHost)
        DetachedThread.start { [self] in run() }
    }

    // MARK: - Any thread

    func submit(id: UInt64, exchange: Exchange, sink: TransferSink) {
        let transfer = Transfer(id: id, exchange: exchange, sink: sink)
        let queued = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.incoming.append(transfer)
            _ = tc_curl_multi_wakeup(multi)
            return true
        }
        if !queued { sink.deliver(.failure(.cancelled)) }
    }

    /// Stops the worker: every transfer ends with `.cancelled`, then the multi handle goes.
    func shutDown() {
        queue.withLock { queue in
            guard !queue.stopping else { return }
            queue.stopping = true
            _ = tc_curl_multi_wakeup(multi)
        }
    }

    func cancel(_ id: UInt64) {
        queue.withLock { queue in
            guard !queue.stopping else { return }
            queue.cancelled.append(id)
            _ = tc_curl_multi_wakeup(multi)
        }
    }

    // MARK: - Worker thread

    private func run() {
        var stopping = false
        while !stopping {
            let work = queue.withLock { queue in
                defer {
                    queue.incoming.removeAll()
                    queue.cancelled.removeAll()
                }
                return (incoming: queue.incoming, cancelled: queue.cancelled, stopping: queue.stopping)
            }
            stopping = work.stopping
            // Added before cancellations, so a transfer queued and cancelled in one batch is removed.
            for transfer in work.incoming {
                if stopping { transfer.sink.deliver(.failure(.cancelled)) } else { start(transfer) }
            }
            for id in work.cancelled {
                if let transfer = active[id] { finish(transfer, .failure(.cancelled)) }
            }
            if stopping { break }

            var running: Int32 = 0
            _ = tc_curl_multi_perform(multi, &running)
            collectFinished()
            let sleep = expireSilentStreams()
            var ready: Int32 = 0
            _ = tc_curl_multi_poll(multi, nil, 0, sleep, &ready)
        }
        for transfer in Array(active.values) { finish(transfer, .failure(.cancelled)) }
        tc_curl_multi_cleanup(multi)
    }

    private func start(_ transfer: Transfer) {
        guard let handle = tc_curl_easy_init() else {
            transfer.sink.deliver(.failure(.unreachable("libcurl could not create a handle")))
            return
        }
        transfer.handle = handle
        if let problem = transfer.configure(handle) {
            release(transfer)
            transfer.sink.deliver(.failure(problem))
            return
        }
        let added = tc_curl_multi_add_handle(multi, handle)
        guard added == CURLM_OK else {
            release(transfer)
            transfer.sink.deliver(.failure(.unreachable(String(cString: tc_curl_multi_strerror(added)))))
            return
        }
        active[transfer.id] = transfer
        byHandle[handle] = transfer.id
    }

    /// Ends, with `.timeout`, the transfers that received nothing for their idle timeout; returns
    /// how long the worker may sleep before the next one could expire (at most an hour).
    ///
    /// Kept here rather than in libcurl's low-speed limit, which would wake the worker every
    /// second for as long as an event stream is open (and measures an average over seconds).
    private func expireSilentStreams() -> Int32 {
        let now = ContinuousClock.now
        var sleep = Duration.milliseconds(Self.idlePollMilliseconds)
        for transfer in Array(active.values) {
            guard let limit = transfer.exchange.idleTimeout else { continue }
            let left = limit - transfer.lastActivity.duration(to: now)
            if left > .zero {
                sleep = min(sleep, left)
            } else {
                finish(transfer, .failure(.timeout))
            }
        }
        return Int32(sleep.milliseconds())
    }

    /// Completes the transfers libcurl reports done.
    private func collectFinished() {
        var left: Int32 = 0
        while let message = tc_curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let id = byHandle[handle], let transfer = active[id] else { continue }
            finish(transfer, transfer.outcome(code: code))
        }
    }

    /// Takes a transfer off the multi handle, frees what it held and hands over its result.
    private func finish(_ transfer: Transfer, _ outcome: Result<HTTPClient.Response, HTTPClientError>) {
        if let handle = transfer.handle {
            _ = tc_curl_multi_remove_handle(multi, handle)
            byHandle[handle] = nil
        }
        active[transfer.id] = nil
        release(transfer)
        transfer.sink.deliver(outcome)
    }

    private func release(_ transfer: Transfer) {
        if let handle = transfer.handle { tc_curl_easy_cleanup(handle) }
        transfer.handle = nil
        tc_curl_slist_free_all(transfer.headerList)
        transfer.headerList = nil
    }
}
