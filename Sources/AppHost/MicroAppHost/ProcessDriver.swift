import AppModel
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import MicroAppProtocol
import Synchronization

/// A process micro-app's IO: it is spawned in a group of its own, its pipes are read on the
/// session's queue and its output framed and decoded there, so the supervisor sees whole messages.
final class ProcessDriver: SessionDriver {
    private struct Running {
        let generation: Int
        let process: Spawner.Started
        let writer: PipeWriter
        let readers: [PipeReader]
        let folders: FolderWatch?
        var framer = LineFramer()
        /// Output wasted (see `Supervisor.Input.excess`) not yet reported.
        var unreportedExcess = 0

        /// The lines `bytes` complete, and the waste to report, if it is time to.
        mutating func frame(_ bytes: [UInt8]) -> ([LineFramer.Item], Int?) {
            let dropped = framer.droppedInAll
            let items = framer.feed(bytes)
            return (items, waste(framer.droppedInAll - dropped))
        }

        /// Counts wasted output; what to report once there is enough to be worth an input.
        mutating func waste(_ bytes: Int) -> Int? {
            unreportedExcess += bytes
            guard unreportedExcess >= ProcessDriver.excessReport else { return nil }
            defer { unreportedExcess = 0 }
            return unreportedExcess
        }
    }

    /// Wasted output is reported to the supervisor in steps of this many bytes.
    static let excessReport = 256 * 1024

    private let recipe: LaunchRecipe
    private let log: AppLog
    private let queue: DispatchQueue
    private let running = Mutex<Running?>(nil)

    init(recipe: LaunchRecipe, log: AppLog, queue: DispatchQueue) {
        self.recipe = recipe
        self.log = log
        self.queue = queue
    }

    func perform(_ effect: Supervisor.Effect, feed: @escaping @Sendable (Supervisor.Input) -> Void) -> Supervisor.Input? {
        switch effect {
        case .spawn(let generation):
            spawn(generation: generation, feed: feed)
        case .write(let message):
            return running.withLock { running in
                guard let running else { return nil }
                return running.writer.write(MicroAppCodec.encode(message)) ? nil : .process(generation: running.generation, .inputOverflow)
            }
        case .closeInput:
            running.withLock { $0?.writer.closeWhenFlushed() }
        case .signalGroup(let signal):
            running.withLock { running in
                running?.process.signal(signal)
            }
        case .finished:
            running.withLock { running in
                running?.writer.close()
                running?.readers.forEach { $0.cancel() }
                running?.folders?.cancel()
                running = nil
            }
        default:
            break
        }
        return nil
    }

    private func spawn(generation: Int, feed: @escaping @Sendable (Supervisor.Input) -> Void) {
        Spawner.shared.spawn(recipe) { [weak self] result in
            guard let self else {
                if case .success(let started) = result { started.signal(SIGKILL) }
                return
            }
            switch result {
            case .failure(let error):
                log.write("host", "could not start: \(error)")
                feed(.process(generation: generation, .spawnFailed(error.description)))
            case .success(let started):
                started.launch.notes.forEach { log.write("host", $0) }
                let errors = attach(started, generation: generation, feed: feed)
                feed(.process(generation: generation, .spawned))
                // Only now: an app that exits at once must not have its exit fed before its
                // start, or the supervisor would wait for an exit that came already.
                followExit(of: started, generation: generation, errors: errors, feed: feed)
            }
        }
    }

    /// Reads the app's output and standard error, and writes its input; returns the reader of its
    /// standard error.
    private func attach(_ started: Spawner.Started, generation: Int,
                        feed: @escaping @Sendable (Supervisor.Input) -> Void) -> PipeReader {
        let output = PipeReader(descriptor: started.output, queue: queue) { [weak self] bytes in
            self?.read(bytes, generation: generation, feed: feed)
        }
        let errors = PipeReader(descriptor: started.errors, queue: queue) { [weak self, log] bytes in
            log.appendErrorOutput(bytes)
            self?.wasted(bytes.count, generation: generation, feed: feed)
        }
        let writer = PipeWriter(descriptor: started.input, queue: queue)
        let folders = FolderWatch(started, queue: queue) { usage in feed(.process(generation: generation, .keepsTooMuch(usage))) }
        running.withLock { $0 = Running(generation: generation, process: started, writer: writer, readers: [output, errors], folders: folders) }
        let launch = started.launch
        log.write("host", "started \(started.app): \(([launch.program] + launch.arguments.dropFirst()).joined(separator: " "))")
        return errors
    }

    /// Counts standard error as wasted output.
    private func wasted(_ bytes: Int, generation: Int, feed: @Sendable (Supervisor.Input) -> Void) {
        let excess = running.withLock { running in running?.generation == generation ? running?.waste(bytes) : nil }
        if let excess { feed(.process(generation: generation, .excess(bytes: excess))) }
    }

    /// How long an exit waits for the rest of the app's standard error.
    static let errorsAfterExit = Duration.milliseconds(250)

    private func followExit(of started: Spawner.Started, generation: Int, errors: PipeReader,
                            feed: @escaping @Sendable (Supervisor.Input) -> Void) {
        watchExit(of: started, gone: { [weak self] in
            // The process is gone but not reaped: no signal may be sent to its id from now on.
            self?.running.withLock { running in
                guard running?.generation == generation else { return }
                running?.writer.close()
                running?.folders?.cancel()
                running = nil
            }
        }, exited: { status in
            // Told once what it wrote to stderr as it ended is in its log (a crash's traceback).
            errors.afterEnd(within: Self.errorsAfterExit) { feed(.process(generation: generation, .exited(status: status))) }
        })
    }

    /// Frames and decodes output on the app's queue.
    private func read(_ bytes: [UInt8], generation: Int, feed: @Sendable (Supervisor.Input) -> Void) {
        guard !bytes.isEmpty else { return }
        let (items, excess) = running.withLock { running -> ([LineFramer.Item], Int?) in
            guard running?.generation == generation else { return ([], nil) }
            return running?.frame(bytes) ?? ([], nil)
        }
        if let excess { feed(.process(generation: generation, .excess(bytes: excess))) }
        for item in items {
            switch item {
            case .tooLong(let count):
                feed(.process(generation: generation, .lineTooLong(bytes: count)))
            case .line(let line):
                guard !line.isEmpty else { continue }
                feed(.line(line, generation: generation))
            }
        }
    }
}
