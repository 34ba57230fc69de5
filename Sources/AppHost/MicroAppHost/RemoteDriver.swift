import AppModel
import MicroAppProtocol
import Synchronization

/// A remote micro-app's IO: a session at the app's entry, reached through the server's proxy, in
/// place of a process. "Spawning" is immediate; the `initialize` line opens the session, later
/// lines are sent one at a time in order, and the session's stream brings the app's lines. A
/// session that cannot be opened, or whose stream ends, is lost: the supervisor tries again while
/// the pane keeps its last view. Lines wait in order while one is sent; as for a process app's
/// input, past `PipeWriter.limit` bytes waiting the app is not keeping up and further lines are
/// dropped, and a line longer than the protocol's (which the server's proxy would refuse) is not
/// sent at all.
final class RemoteDriver: SessionDriver {
    private struct Running {
        let generation: Int
        var session: String?
        let outbox: AsyncStream<[UInt8]>.Continuation
        var tasks: [Task<Void, Never>] = []
        /// Bytes of lines written and not yet sent.
        var waiting = 0
    }

    private let appID: String
    private let transport: any RemoteAppTransport
    private let running = Mutex<Running?>(nil)

    init(appID: String, transport: any RemoteAppTransport) {
        self.appID = appID
        self.transport = transport
    }

    func perform(_ effect: Supervisor.Effect, feed: @escaping @Sendable (Supervisor.Input) -> Void) -> Supervisor.Input? {
        switch effect {
        case .spawn(let generation):
            end()
            let (outbox, continuation) = AsyncStream.makeStream(of: [UInt8].self)
            // The session is running before its task starts: a task that opened the session
            // before it was recorded would take it for a stale one and close it.
            running.withLock { $0 = Running(generation: generation, outbox: continuation) }
            let task = Task<Void, Never> { [weak self] in await self?.deliver(outbox, generation: generation, feed: feed) }
            let kept = running.withLock { running -> Bool in
                guard running?.generation == generation else { return false }
                running?.tasks.append(task)
                return true
            }
            if !kept { task.cancel() }
            return .process(generation: generation, .spawned)
        case .write(let message):
            let line = MicroAppCodec.encode(message)
            return running.withLock { running -> Supervisor.Input? in
                guard let current = running else { return nil }
                guard line.count <= LineFramer.standardLimit else { return .process(generation: current.generation, .lineTooLong(bytes: line.count)) }
                guard current.waiting + line.count <= PipeWriter.limit else { return .process(generation: current.generation, .inputOverflow) }
                running?.waiting += line.count
                current.outbox.yield(line)
                return nil
            }
        case .closeInput, .signalGroup:
            // After `exit`, or a hung session given up: it is over.
            guard let generation = end() else { return nil }
            return .process(generation: generation, .lost(reason: "closed"))
        case .finished:
            end()
        default:
            break
        }
        return nil
    }

    /// Ends the current session, at the entry too; returns its generation.
    @discardableResult
    private func end() -> Int? {
        guard let ended = running.withLock({ running -> Running? in
            defer { running = nil }
            return running
        }) else { return nil }
        ended.outbox.finish()
        ended.tasks.forEach { $0.cancel() }
        if let session = ended.session {
            let transport = transport
            let app = appID
            Task { await transport.close(app: app, session: session) }
        }
        return ended.generation
    }

    /// Sends the session's lines in order: the first (`initialize`) opens it, and starts reading.
    private func deliver(_ outbox: AsyncStream<[UInt8]>, generation: Int, feed: @escaping @Sendable (Supervisor.Input) -> Void) async {
        var session: String?
        for await line in outbox {
            defer { running.withLock { if $0?.generation == generation { $0?.waiting -= line.count } } }
            do throws(RemoteAppFailure) {
                if let session {
                    try await transport.send(app: appID, session: session, line: line)
                    continue
                }
                let opened = try await transport.open(app: appID, initialize: line)
                session = opened.session
                let current = running.withLock { running -> Bool in
                    guard running?.generation == generation else { return false }
                    running?.session = opened.session
                    return true
                }
                guard current else {
                    await transport.close(app: appID, session: opened.session)
                    return
                }
                received(opened.answer, generation: generation, feed: feed)
                // Only now: the app's own lines come after its answer to `initialize`, never before.
                running.withLock { running in
                    guard running?.generation == generation else { return }
                    running?.tasks.append(Task<Void, Never> { [weak self] in await self?.read(opened.session, generation: generation, feed: feed) })
                }
            } catch {
                guard !Task.isCancelled else { return }
                feed(.process(generation: generation, .lost(reason: error.description)))
                return
            }
        }
    }

    private func read(_ session: String, generation: Int, feed: @Sendable (Supervisor.Input) -> Void) async {
        for await item in transport.lines(app: appID, session: session) {
            switch item {
            case .line(let line):
                received(line, generation: generation, feed: feed)
            case .ended(let reason):
                guard !Task.isCancelled else { return }
                feed(.process(generation: generation, .lost(reason: reason)))
                return
            }
        }
    }

    private func received(_ line: [UInt8], generation: Int, feed: (Supervisor.Input) -> Void) {
        guard !line.isEmpty else { return }
        guard line.count <= LineFramer.standardLimit else {
            feed(.process(generation: generation, .lineTooLong(bytes: line.count)))
            return
        }
        feed(.line(line, generation: generation))
    }
}
