import Dispatch
import Foundation
import MicroAppModel
import MicroAppProtocol
import Synchronization

/// A process micro-app's IO: it is spawned in a group of its own, its pipes are read on the
/// session's queue and its output framed and decoded there, so the supervisor sees whole messages.
final class ProcessDriver: SessionDriver {
    private struct Running {
        let generation: Int
        let pid: pid_t
        let writer: PipeWriter
        let readers: [PipeReader]
        var framer = LineFramer()
    }

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
            do {
                spawn(try recipe.make(), generation: generation, feed: feed)
            } catch {
                log.write("host", "could not start: \(error)")
                return .spawnFailed(generation: generation, error.description)
            }
        case .write(let message):
            return running.withLock { running in
                guard let running else { return nil }
                return running.writer.write(MicroAppCodec.encode(message)) ? nil : .inputOverflow(generation: running.generation)
            }
        case .closeInput:
            running.withLock { $0?.writer.closeWhenFlushed() }
        case .signalGroup(let signal):
            running.withLock { running in
                if let running { kill(-running.pid, signal) }
            }
        case .finished:
            running.withLock { running in
                running?.writer.close()
                running?.readers.forEach { $0.cancel() }
                running = nil
            }
        default:
            break
        }
        return nil
    }

    private func spawn(_ launch: AppLaunch, generation: Int, feed: @escaping @Sendable (Supervisor.Input) -> Void) {
        Spawner.shared.spawn(launch) { [weak self] result in
            guard let self else {
                if case .success(let started) = result { kill(-started.pid, SIGKILL) }
                return
            }
            switch result {
            case .failure(let error):
                log.write("host", "could not start: \(error)")
                feed(.spawnFailed(generation: generation, error.description))
            case .success(let started):
                attach(started, launch: launch, generation: generation, feed: feed)
                feed(.spawned(generation: generation))
                // Only now: an app that exits at once must not have its exit fed before its
                // start, or the supervisor would wait for an exit that came already.
                followExit(of: started.pid, generation: generation, feed: feed)
            }
        }
    }

    private func attach(_ started: Spawner.Started, launch: AppLaunch, generation: Int,
                        feed: @escaping @Sendable (Supervisor.Input) -> Void) {
        let output = PipeReader(descriptor: started.output, queue: queue) { [weak self] bytes in
            self?.read(bytes, generation: generation, feed: feed)
        }
        let errors = PipeReader(descriptor: started.errors, queue: queue) { [log] bytes in log.appendErrorOutput(bytes) }
        let writer = PipeWriter(descriptor: started.input, queue: queue)
        running.withLock { $0 = Running(generation: generation, pid: started.pid, writer: writer, readers: [output, errors]) }
        log.write("host", "started \(started.pid): \(([launch.program] + launch.arguments.dropFirst()).joined(separator: " "))")
    }

    private func followExit(of pid: pid_t, generation: Int, feed: @escaping @Sendable (Supervisor.Input) -> Void) {
        watchExit(of: pid, gone: { [weak self] in
            // The process is gone but not reaped: no signal may be sent to its id from now on.
            self?.running.withLock { running in
                guard running?.generation == generation else { return }
                running?.writer.close()
                running = nil
            }
        }, exited: { status in
            feed(.exited(generation: generation, status: status))
        })
    }

    /// Frames and decodes output on the app's queue.
    private func read(_ bytes: [UInt8], generation: Int, feed: @Sendable (Supervisor.Input) -> Void) {
        guard !bytes.isEmpty else { return }
        let items = running.withLock { running -> [LineFramer.Item] in
            guard running?.generation == generation else { return [] }
            return running?.framer.feed(bytes) ?? []
        }
        for item in items {
            switch item {
            case .tooLong(let count):
                feed(.lineTooLong(generation: generation, bytes: count))
            case .line(let line):
                guard !line.isEmpty else { continue }
                feed(.line(line, generation: generation))
            }
        }
    }
}
