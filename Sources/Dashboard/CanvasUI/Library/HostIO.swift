/// Runs the host's IO — the library's reads and writes, the generator's runs — off the main
/// actor; what they answer arrives in the `mailbox`.
///
/// Reads run concurrently; writes run one after another in the order they were asked for, so
/// the history on disk follows the steps exactly. Each read sees every write asked for before it
/// and none asked for after it, e.g. the list read again after a rename shows the new name.
@MainActor
public final class HostIO {
    public nonisolated let mailbox: Mailbox
    private var lastWrite: Task<Void, Never>?
    /// Reads asked for since the last write: the next write waits for them.
    private var readsSinceWrite: [Task<Void, Never>] = []
    /// The micro-app generator's run going, and the last one stopped, which may not have ended yet.
    private var generation: Task<Void, Never>?
    private var stoppedGeneration: Task<Void, Never>?

    public init(mailbox: Mailbox = Mailbox()) {
        self.mailbox = mailbox
    }

    /// Starts `work` once the writes asked for before it are done; its message, if any, arrives in
    /// the mailbox.
    private func read(_ work: @escaping @Sendable () async -> HostMessage?) {
        let previous = lastWrite
        let mailbox = mailbox
        readsSinceWrite.append(Task.detached {
            await previous?.value
            if let message = await work() { mailbox.post(message) }
        })
    }

    /// Queues a write after every earlier write and read; a failure arrives as an error notice,
    /// success as `then`, if given.
    private func write(_ what: String, then done: HostMessage? = nil, _ work: @escaping @Sendable () async throws -> Void) {
        let previous = lastWrite
        let reads = readsSinceWrite
        readsSinceWrite = []
        let mailbox = mailbox
        lastWrite = Task.detached {
            await previous?.value
            for read in reads { await read.value }
            do {
                try await work()
                if let done { mailbox.post(done) }
            } catch {
                mailbox.post(.notice(.error("Could not \(what): \(error)")))
            }
        }
    }

    /// Reads the library; the answer arrives in the mailbox.
    func run(_ read: LibraryRead, on library: any LayoutLibrary) {
        self.read { await Self.answer(read, from: library) }
    }

    /// Nothing here needs the main actor (the class is its, so its static methods would be too).
    private nonisolated static func answer(_ read: LibraryRead, from library: any LayoutLibrary) async -> HostMessage? {
        do {
            switch read {
            case .summaries: return .layoutsListed(try await library.summaries())
            case .names: return .namesListed(layouts: try await library.layoutNames(), themes: await library.themeNames())
            case .themeNames: return .themesListed(await library.themeNames())
            case .theme(let name, let keep):
                do {
                    let loaded = try await library.theme(named: name)
                    return keep ? .themeChosen(loaded) : .themeLoaded(loaded)
                } catch {
                    return .notice(.error("Theme \(name): \(error)"))
                }
            case .history(let name):
                // Nothing to say when there is none: undo starts with this run.
                guard let history = try? await library.history(name) else { return nil }
                return .historyLoaded(layout: name, history)
            case .layout(let name):
                do {
                    if let copy = try await library.sharedCopy(named: name) { return .sharedLayoutLoaded(copy) }
                    return .layoutLoaded(try await library.load(name))
                } catch {
                    return .notice(.error("Could not load \(name): \(error)"))
                }
            case .restorePreset(let name):
                do {
                    return .layoutLoaded(try await library.restorePreset(name))
                } catch {
                    return .notice(.error("Could not restore the preset \(name): \(error)"))
                }
            }
        } catch {
            return .notice(.error("Could not list layouts: \(error)"))
        }
    }

    /// Queues a write to the library; a failure arrives in the mailbox as an error notice.
    func run(_ write: LibraryWrite, on library: any LayoutLibrary) {
        let mailbox = mailbox
        switch write {
        case .step(let step, let layout, let before):
            self.write("record the step") { try await library.recordStep(step, layout: layout, before: before) }
        case .undo(let layout):
            self.write("record the undo") { try await library.recordUndo(layout: layout) }
        case .redo(let layout):
            self.write("record the redo") { try await library.recordRedo(layout: layout) }
        case .save(let layout, let source, let announce):
            self.write("save \(layout.name)") {
                var kept = layout.name
                if let source, source != layout.name {
                    try await library.save(layout, continuingHistoryOf: source)
                } else {
                    kept = try await library.save(layout)
                }
                if announce { mailbox.post(.saved(kept)) }
            }
        case .saveOnQuit(let layout):
            self.write("save the layout") {
                do {
                    try await library.save(layout)
                    mailbox.post(.quitSaved(failure: nil))
                } catch {
                    mailbox.post(.quitSaved(failure: "\(error)"))
                }
            }
        case .delete(let name):
            self.write("delete \(name)") { try await library.delete(name) }
        case .rename(let name, let newName):
            self.write("rename \(name)") { try await library.rename(name, to: newName) }
        case .rememberTheme(let name):
            self.write("remember the theme") { try await library.remember(theme: name) }
        case .loadTimes(let times):
            self.write("keep the load times") { try await library.record(times) }
        case .keepShared(let copy):
            self.write("keep the copy of \(copy.name)") { try await library.keep(copy) }
        }
    }

    /// Asks the generator; its news arrives in the mailbox.
    func run(_ request: GeneratorRequest, on generator: any AppGenerating) {
        let mailbox = mailbox
        switch request {
        case .check(let run):
            read { .appGeneration(run: run, .checked(problem: await generator.problem())) }
        case .write(let description, let run):
            stopGenerating()
            generation = Task.detached {
                let update: AppGenerationUpdate
                do {
                    update = .ready(try await generator.generate(description) { mailbox.post(.appGeneration(run: run, .progress($0))) })
                } catch {
                    update = .failed("\(error)")
                }
                mailbox.post(.appGeneration(run: run, update))
            }
        case .install(let review, let run):
            write("install \(review.name)") {
                do {
                    mailbox.post(.appGeneration(run: run, .installed(try await review.install())))
                } catch {
                    mailbox.post(.appGeneration(run: run, .installFailed("\(error)")))
                }
            }
        case .stop:
            stopGenerating()
        }
    }

    private func stopGenerating() {
        generation?.cancel()
        if let generation { stoppedGeneration = generation }
        generation = nil
    }

    /// Waits for the generator's last stopped run to end (cancelled, it ends at once, its trial
    /// folder removed): call before the process exits, after the host's `shutdown`.
    public func generatorStopped() async {
        await stoppedGeneration?.value
    }

    /// Waits until every queued write, and every read asked for since the last, has finished:
    /// what they send back is in `messages` by then.
    public func drain() async {
        await lastWrite?.value
        for read in readsSinceWrite { await read.value }
    }
}
