import AppModel
import CanvasCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import MicroAppProtocol

/// The life of one process micro-app as a value: inputs (its lines, its exit, timers, the user)
/// go in, effects (bytes to write, signals, timers, updates for its pane) come out. The IO around
/// it is `SupervisedSession`; everything that decides is here, and tested as values.
struct Supervisor {
    enum Input: Sendable {
        /// Start, with what `initialize` carries (the app's saved state included).
        case start(InitializeParams)
        /// What the process of `generation` did; an earlier process's news is only logged.
        case process(generation: Int, ProcessEvent)
        case timer(Timer)
        case send(HostToApp)
        case restart
        case stop
    }

    /// What one process (or remote session) did.
    enum ProcessEvent: Sendable {
        case spawned
        case spawnFailed(String)
        /// A line the app wrote, read, with its length in bytes.
        case received(AppToHost, bytes: Int)
        /// A line that is not a message: why, with the start of the line.
        case unreadable(reason: String, answer: HostToApp?)
        case lineTooLong(bytes: Int)
        /// Output the host could not use or only logs: bytes of lines over the limit (an endless
        /// line among them, counted as it comes) and of standard error.
        case excess(bytes: Int)
        /// Its input pipe holds too much the app has not read.
        case inputOverflow
        /// Its folders hold more than it may keep (`FolderWatch`).
        case keepsTooMuch(FolderWatch.Usage)
        case exited(status: Int32)
        /// A remote app's session ended or could not be reached; why.
        case lost(reason: String)
        case backendAnswered(id: RPCID, Result<HTTPResult, RPCError>)

        /// How the log names it.
        var name: String {
            switch self {
            case .spawned: "its start"
            case .spawnFailed: "a failed start"
            case .received: "a message"
            case .unreadable: "an unreadable line"
            case .lineTooLong: "a line over the limit"
            case .excess: "excess output"
            case .inputOverflow: "a full input pipe"
            case .keepsTooMuch: "full folders"
            case .exited: "its exit"
            case .lost: "a lost session"
            case .backendAnswered: "a backend answer"
            }
        }
    }

    enum Timer: Hashable, Sendable {
        case startup(generation: Int)
        case keyAnswer(generation: Int)
        case restart(generation: Int)
        case throttleReport
        case terminate(generation: Int)
        case kill(generation: Int)
    }

    enum Effect: Equatable, Sendable {
        case spawn(generation: Int)
        case write(HostToApp)
        /// Closes the app's standard input (after `exit`).
        case closeInput
        case signalGroup(Int32)
        case schedule(Timer, afterSeconds: Double)
        /// The pane has news in `updates`.
        case wake
        case callBackend(generation: Int, id: RPCID, HTTPRequest)
        /// A line for the app's log about what the host did.
        case log(String)
        /// A line the app asked to log.
        case appLog(String)
        /// Every process is gone after `stop`.
        case finished
    }

    enum Phase: Equatable, Sendable {
        case idle
        case spawning
        /// Waiting for the answer to `initialize` (request id 1 of each process).
        case initializing
        case running(Running)
        /// Waiting to start it again: when the restart timer fires (after a crash), or, after `r`
        /// killed an app hung at its start, when its exit arrives (`onExit`).
        case waitingToRestart(onExit: Bool)
        case stopped
        /// Asked to leave (then signalled); started again when its exit arrives if `thenRestart`
        /// (`r` on a running app).
        case stopping(thenRestart: Bool)
        case finished

        var isStopping: Bool {
            if case .stopping = self { return true }
            return false
        }

        var isRunning: Bool {
            if case .running = self { return true }
            return false
        }

        /// Its process talks: initializing or running.
        var isTalking: Bool { self == .initializing || isRunning }

        /// How the log names it.
        var words: String {
            switch self {
            case .idle: "not started"
            case .spawning: "starting"
            case .initializing: "waiting for its answer to initialize"
            case .running: "running"
            case .waitingToRestart: "waiting to restart"
            case .stopped: "stopped"
            case .stopping: "stopping"
            case .finished: "finished"
            }
        }
    }

    /// What only a running app has: the keys it has not answered.
    struct Running: Equatable, Sendable {
        /// When the oldest key no view has answered yet was sent.
        var oldestUnansweredKey: ContinuousClock.Instant?
        /// A timer checks that keys are answered.
        var keyTimerPending = false
    }

    /// What belongs to one process (one generation), started afresh with the next.
    struct Process {
        var generation = 0
        /// A process of this supervisor runs (spawned, its exit not yet seen).
        var alive = false
        var startedAt: ContinuousClock.Instant?
        var callsInFlight: Set<RPCID> = []
        var excess = OutputBudget()
        /// The last signal sent to the app's group, and why.
        var lastSignal: (signal: Int32, why: String)?
    }

    /// What the app would be told if it were running: kept so a restart starts from it.
    struct PaneFacts {
        var size: ViewSize?
        var focused = false
        var visible = true
    }

    /// The crashes that decide the backoff before a restart, and when the restarts stop.
    struct CrashHistory {
        private var times: [ContinuousClock.Instant] = []
        private var consecutive = 0

        /// A crash at `now` of a process started at `startedAt`: how many within `crashWindow`,
        /// and the backoff before the next start (doubling, from one second).
        mutating func crashed(at now: ContinuousClock.Instant, startedAt: ContinuousClock.Instant?, maximumBackoff: Double)
            -> (inWindow: Int, backoff: Double) {
            if let startedAt, startedAt.duration(to: now) >= Supervisor.stableRun { consecutive = 0 }
            consecutive += 1
            times = times.filter { $0.duration(to: now) < Supervisor.crashWindow } + [now]
            return (times.count, min(maximumBackoff, pow(2, Double(consecutive - 1))))
        }

        /// The user restarted it: a fresh start.
        mutating func forget() {
            self = CrashHistory()
        }
    }

    /// Publishes over the app's rate, dropped and reported once a second.
    struct PublishThrottle {
        /// The pace of its publishes, full at the first (`publishesPerSecond` a second, as many at once).
        var pace: TokenBucket?
        var reportPending = false
        var droppedSinceReport = 0
    }

    let appID: String
    let limits: AppManifest.Limits
    let permissions: Permissions
    /// A remote app: a lost session is the network's doing, not a crash of the app, so it is
    /// retried (at most `maximumRemoteBackoff` apart) for as long as the pane shows it, never
    /// stopped after `crashesToStop`, and not reported as `canvas.app.crashed`.
    let isRemote: Bool
    static let maximumRemoteBackoff = 30.0
    /// Seconds a key may go without a view before the pane says the app is not responding.
    static let keyAnswerSeconds = 2.0
    /// Crashes within this long that stop the restarts.
    static let crashWindow = Duration.seconds(120)
    static let crashesToStop = 5
    /// A process that ran this long clears the backoff.
    static let stableRun = Duration.seconds(60)
    static let maximumBackoff = 60.0
    /// Calls to the backend at once; more are answered "too many requests".
    static let concurrentCalls = 4
    /// A publish line longer than this is refused: the event log keeps hundreds of events.
    static let maximumPublishBytes = 8 * 1024
    /// Publishes held for a pane that has not taken them (it is busy); more are dropped.
    static let maximumHeldPublishes = 256
    /// Refused nodes of one view named in the log; the rest are counted.
    static let refusalsLogged = 5
    static let ruleBreaksHeld = 20

    private(set) var phase: Phase = .idle
    private(set) var process = Process()
    var generation: Int { process.generation }
    private(set) var updates = AppUpdates()
    private var parameters: InitializeParams?
    private var pane = PaneFacts()
    private var crashes = CrashHistory()
    private var throttle = PublishThrottle()
    private var woken = false
    private var stateRefusedLogged = false
    /// The unknown notifications warned of, each once (at most `ruleBreaksHeld` of them).
    private var warnedNotifications: Set<String> = []
    /// The refused nodes of the last view, as logged.
    private var loggedRefusals: [String] = []

    /// Said beside a failed start or a crash: its memory limit is below what its runtime needs.
    let memoryHint: String?

    init(appID: String, limits: AppManifest.Limits, permissions: Permissions, isRemote: Bool = false, memoryHint: String? = nil) {
        self.appID = appID
        self.limits = limits
        self.permissions = permissions
        self.isRemote = isRemote
        self.memoryHint = memoryHint
    }

    /// Hands over what the pane has not taken yet.
    mutating func takeUpdates() -> AppUpdates {
        defer {
            updates = AppUpdates()
            woken = false
        }
        return updates
    }

    mutating func handle(_ input: Input, now: ContinuousClock.Instant) -> [Effect] {
        var effects: [Effect] = []
        switch input {
        case .start(let start):
            guard phase == .idle else {
                effects.append(.log("ignored a second start"))
                break
            }
            parameters = start
            pane = PaneFacts(size: start.size, focused: start.focused, visible: start.visible)
            spawn(&effects)
        case .process(let from, let event):
            // An earlier process's late news (its last lines, its exit after a restart) changes
            // nothing of this one's.
            guard from == generation else {
                effects.append(.log("ignored \(event.name) of an earlier process (\(from); this is \(generation))"))
                break
            }
            take(event, now: now, &effects)
        case .timer(let timer):
            fire(timer, now: now, &effects)
        case .send(let message):
            send(message, now: now, &effects)
        case .restart:
            restart(&effects)
        case .stop:
            stop(&effects)
        }
        return effects
    }

    /// What the current process did. What a phase has no use for is said in the app's log,
    /// except output past its end (the lines of a process being stopped).
    private mutating func take(_ event: ProcessEvent, now: ContinuousClock.Instant, _ effects: inout [Effect]) {
        switch event {
        case .spawned:
            process.alive = true
            guard phase == .spawning, var start = parameters else {
                signal(SIGKILL, because: "it was stopped while it was being started", &effects)
                return
            }
            phase = .initializing
            process.startedAt = now
            start.size = pane.size ?? start.size
            start.focused = pane.focused
            start.visible = pane.visible
            effects.append(.write(.initialize(id: .number(1), start)))
            effects.append(.schedule(.startup(generation: generation), afterSeconds: limits.startupSeconds))
        case .spawnFailed(let reason):
            if phase.isStopping {
                phase = .finished
                effects.append(.finished)
                return
            }
            phase = .stopped
            setStatus(.stopped("could not start: \(reason)"), &effects)
        case .received(let message, let bytes):
            guard phase.isTalking || phase.isStopping else { return ignore(event, &effects) }
            receive(message, bytes: bytes, now: now, &effects)
        case .unreadable(let reason, let answer):
            broke("unreadable line: \(reason)", &effects)
            if let answer { effects.append(.write(answer)) }
        case .lineTooLong(let bytes):
            broke("dropped a line of \(bytes) bytes (the limit is \(LineFramer.standardLimit))", &effects)
        case .excess(let bytes):
            // Counted while it talks; a process stopped or stopping is on its way out anyway.
            guard phase.isTalking, process.excess.add(bytes, now: now) else { return }
            phase = .stopped
            broke("stopped: flooding its output, \(process.excess.total(now: now) >> 20) MiB of lines over \(LineFramer.standardLimit >> 10) KiB "
                  + "and standard error within \(OutputBudget.window.components.seconds) s (the budget is \(OutputBudget.bytes >> 20) MiB)", &effects)
            setStatus(.stopped("flooding its output"), &effects)
            signal(SIGKILL, because: "it was flooding its output", &effects)
        case .keepsTooMuch(let usage):
            guard phase.isTalking else { return ignore(event, &effects) }
            phase = .stopped
            let reason = FolderWatch.stopReason(usage, bytesLimit: limits.diskBytes)
            broke("stopped: \(reason) (\(FolderWatch.describe(usage)))", &effects)
            // Its data folder lasts: without a word of how to empty it, it would stop at each start.
            setStatus(.stopped(reason + "; termcanvas apps data \(appID) shows what, --clear empties it"), &effects)
            signal(SIGKILL, because: "it kept too much in its folders", &effects)
        case .inputOverflow:
            guard phase.isTalking else { return ignore(event, &effects) }
            setStatus(.notResponding("not reading its input"), &effects)
        case .exited(let status):
            process.alive = false
            effects.append(.log("ended: \(Self.describe(status))\(sentBy(status))"))
            process.lastSignal = nil
            ended(Self.describe(status), now: now, &effects)
        case .lost(let reason):
            guard process.alive else { return ignore(event, &effects) }
            process.alive = false
            ended(reason, now: now, &effects)
        case .backendAnswered(let id, let result):
            guard process.callsInFlight.remove(id) != nil else { return ignore(event, &effects) }
            switch result {
            case .success(let answer): effects.append(.write(.httpResult(id: id, answer)))
            case .failure(let error): effects.append(.write(.failure(id: id, error)))
            }
        }
    }

    /// Says in the app's log that `event` meant nothing in this phase.
    private func ignore(_ event: ProcessEvent, _ effects: inout [Effect]) {
        effects.append(.log("ignored \(event.name) while \(phase.words)"))
    }

    // MARK: Starting and stopping

    private mutating func spawn(_ effects: inout [Effect]) {
        // A process's exit, and why it was signalled, are said by the process they belong to.
        process = Process(generation: process.generation + 1, alive: process.alive, lastSignal: process.lastSignal)
        phase = .spawning
        setStatus(.starting, &effects)
        effects.append(.spawn(generation: generation))
    }

    private mutating func restart(_ effects: inout [Effect]) {
        switch phase {
        case .stopped, .waitingToRestart:
            crashes.forget()
            spawn(&effects)
        case .running:
            // Asked to leave as when its pane closes (it may be hung: then signalled), and
            // started again, with its saved state, when its exit arrives.
            crashes.forget()
            stop(&effects)
            phase = .stopping(thenRestart: true)
        case .initializing:
            // Hung at its start: killed, and started again when its exit arrives.
            crashes.forget()
            phase = .waitingToRestart(onExit: true)
            signal(SIGKILL, because: "the user restarted it", &effects)
        case .idle, .spawning, .stopping, .finished:
            effects.append(.log("ignored a restart while \(phase.words)"))
        }
    }

    private mutating func stop(_ effects: inout [Effect]) {
        switch phase {
        case .initializing, .running:
            phase = .stopping(thenRestart: false)
            effects.append(.write(.shutdown(id: .number(2))))
            effects.append(.schedule(.terminate(generation: generation), afterSeconds: 0.3))
        case .spawning:
            // Killed when its start is reported; its exit or failure ends it.
            phase = .stopping(thenRestart: false)
        case .idle, .stopped, .waitingToRestart:
            guard process.alive else {
                phase = .finished
                effects.append(.finished)
                return
            }
            // Told to leave but still there (it ignored the signal, or `r` is waiting for it).
            phase = .stopping(thenRestart: false)
            signal(SIGTERM, because: "its pane closed while it was still there", &effects)
            effects.append(.schedule(.kill(generation: generation), afterSeconds: 0.3))
        case .stopping(let thenRestart):
            if thenRestart { phase = .stopping(thenRestart: false) }
        case .finished:
            break
        }
    }

    /// Its process exited, or its remote session was lost.
    private mutating func ended(_ description: String, now: ContinuousClock.Instant, _ effects: inout [Effect]) {
        switch phase {
        case .stopping(thenRestart: true), .waitingToRestart(onExit: true):
            spawn(&effects)
            return
        case .stopping:
            phase = .finished
            effects.append(.finished)
            return
        case .stopped:
            return  // e.g. an incompatible app told to leave
        default:
            break
        }
        // A process's end is logged as it comes (`exited`); a remote session's here.
        if isRemote { effects.append(.log("session lost: \(description)")) } else { updates.crashes.append(description) }
        let (inWindow, delay) = crashes.crashed(at: now, startedAt: process.startedAt,
                                                maximumBackoff: isRemote ? Self.maximumRemoteBackoff : Self.maximumBackoff)
        if !isRemote, inWindow >= Self.crashesToStop {
            phase = .stopped
            setStatus(.stopped("\(description); crashed \(inWindow) times in \(Self.crashWindow.components.seconds / 60) minutes"), &effects)
            return
        }
        phase = .waitingToRestart(onExit: false)
        setStatus(.restarting(exit: description, afterSeconds: Int(delay)), &effects)
        effects.append(.schedule(.restart(generation: generation), afterSeconds: delay))
    }

    private mutating func fire(_ timer: Timer, now: ContinuousClock.Instant, _ effects: inout [Effect]) {
        switch timer {
        case .startup(let from):
            guard from == generation, phase == .initializing else { return }
            if isRemote {
                // The network's doing as often as the app's: tried again like a lost session.
                process.alive = false
                ended("no answer to initialize within \(Self.seconds(limits.startupSeconds))", now: now, &effects)
                signal(SIGKILL, because: "it did not answer initialize in time", &effects)
                return
            }
            phase = .stopped
            effects.append(.log("no answer to initialize within \(Self.seconds(limits.startupSeconds))"))
            setStatus(.stopped("did not answer within \(Self.seconds(limits.startupSeconds))" + (memoryHint.map { "; \($0)" } ?? "")), &effects)
            signal(SIGKILL, because: "it did not answer initialize within \(Self.seconds(limits.startupSeconds))", &effects)
        case .keyAnswer(let from):
            guard from == generation, case .running(var running) = phase else { return }
            running.keyTimerPending = false
            defer { phase = .running(running) }
            guard let oldest = running.oldestUnansweredKey else { return }
            let waited = oldest.duration(to: now).inSeconds
            if waited >= Self.keyAnswerSeconds - 0.001 {
                setStatus(.notResponding("no answer to a key for \(Int(Self.keyAnswerSeconds)) s"), &effects)
            } else {
                running.keyTimerPending = true
                effects.append(.schedule(.keyAnswer(generation: generation), afterSeconds: Self.keyAnswerSeconds - waited))
            }
        case .restart(let from):
            guard from == generation, phase == .waitingToRestart(onExit: false) else { return }
            spawn(&effects)
        case .throttleReport:
            throttle.reportPending = false
            guard throttle.droppedSinceReport > 0 else { return }
            broke("refused: \(throttle.droppedSinceReport) publishes over its rate of \(limits.publishesPerSecond) a second "
                  + "(or while the pane was busy), reported as canvas.app.throttled", &effects)
            updates.throttled += throttle.droppedSinceReport
            throttle.droppedSinceReport = 0
        case .terminate(let from):
            guard from == generation, phase.isStopping else { return }
            signal(SIGTERM, because: "\(leaving) and it had not left 0.3 s after shutdown", &effects)
            effects.append(.schedule(.kill(generation: generation), afterSeconds: 0.3))
        case .kill(let from):
            guard from == generation, phase.isStopping else { return }
            signal(SIGKILL, because: "\(leaving) and it had not left 0.3 s after SIGTERM", &effects)
        }
    }

    /// Why it is being asked to leave, for its stop line.
    private var leaving: String { phase == .stopping(thenRestart: true) ? "it was being restarted" : "its pane closed" }

    /// Signals the app's process group, remembering why for its stop line.
    private mutating func signal(_ signal: Int32, because why: String, _ effects: inout [Effect]) {
        process.lastSignal = (signal, why)
        effects.append(.signalGroup(signal))
    }

    /// Who ended a process killed by a signal: TermCanvas (and why), or not. A signal other than
    /// the one TermCanvas sent still follows it: the sandbox's keeper ends the app it is told to
    /// end with SIGKILL.
    private func sentBy(_ status: Int32) -> String {
        guard status < 0 else { return "" }
        if let lastSignal = process.lastSignal {
            return lastSignal.signal == -status ? ", sent by TermCanvas: \(lastSignal.why)"
                : ", after TermCanvas sent \(Self.signalNames[lastSignal.signal] ?? "signal \(lastSignal.signal)"): \(lastSignal.why)"
        }
        return -status == SIGXCPU ? ", its CPU limit" : ", not sent by TermCanvas"
    }

    // MARK: Messages

    private mutating func send(_ message: HostToApp, now: ContinuousClock.Instant, _ effects: inout [Effect]) {
        switch message {
        case .resize(let new): pane.size = new
        case .focus(let new): pane.focused = new
        case .visible(let new): pane.visible = new
        case .busEvent(let event): parameters?.remember(event)  // a restarted process starts knowing it
        case .settings(let settings): parameters?.settings = settings
        default: break
        }
        guard case .running(var running) = phase else { return }
        if case .key = message {
            if running.oldestUnansweredKey == nil { running.oldestUnansweredKey = now }
            if !running.keyTimerPending {
                running.keyTimerPending = true
                effects.append(.schedule(.keyAnswer(generation: generation), afterSeconds: Self.keyAnswerSeconds))
            }
            phase = .running(running)
        }
        effects.append(.write(message))
    }

    private mutating func receive(_ message: AppToHost, bytes: Int, now: ContinuousClock.Instant, _ effects: inout [Effect]) {
        switch message {
        case .response(.number(1), let result) where phase == .initializing:
            initialized(InitializeResult(json: result), &effects)
        case .failure(.number(1), let error) where phase == .initializing:
            phase = .stopped
            broke("initialize failed: \(error.message) (error \(error.code))", &effects)
            setStatus(.stopped("initialize failed: \(error.message)"), &effects)
            signal(SIGKILL, because: "its initialize failed", &effects)
        case .response(.number(2), _) where phase.isStopping:
            effects.append(.write(.exit))
            effects.append(.closeInput)
        case .response, .failure:
            break
        case .view(let view):
            if case .running(var running) = phase {
                running.oldestUnansweredKey = nil
                phase = .running(running)
            }
            if case .notResponding? = currentStatus { setStatus(.running, &effects) }
            show(view, &effects)
        case .publish(let publish):
            self.publish(publish, bytes: bytes, now: now, &effects)
        case .http(let id, let request):
            guard phase.isRunning else {
                broke("refused: http before initialize was answered or after shutdown", &effects)
                effects.append(.write(.failure(id: id, RPCError(code: RPCError.invalidRequest,
                                                               message: "http is answered only between initialize and shutdown"))))
                return
            }
            guard permits(request.path) else {
                broke("refused: \(request.method) \(request.path) is not among the backend paths it declared and was granted", &effects)
                effects.append(.write(.failure(id: id, RPCError(code: RPCError.notPermitted, message: "not permitted: \(request.path)"))))
                return
            }
            guard !process.callsInFlight.contains(id) else {
                broke("refused: http with id \(id), which an unanswered call has", &effects)
                effects.append(.write(.failure(id: id, RPCError(code: RPCError.invalidRequest, message: "id \(id) is already in use"))))
                return
            }
            guard process.callsInFlight.count < Self.concurrentCalls else {
                broke("refused: more than \(Self.concurrentCalls) http calls at once", &effects)
                effects.append(.write(.failure(id: id, RPCError(code: RPCError.tooManyRequests,
                                                               message: "at most \(Self.concurrentCalls) calls at once"))))
                return
            }
            process.callsInFlight.insert(id)
            effects.append(.callBackend(generation: generation, id: id, request))
        case .stateSave(let state):
            guard permissions.state else {
                if !stateRefusedLogged { broke("refused: state.save without the state permission", &effects) }
                stateRefusedLogged = true
                return
            }
            guard bytes <= limits.stateBytes + 64 else {
                broke("refused: state of \(bytes) bytes is over its limit of \(limits.stateBytes)", &effects)
                return
            }
            updates.state = state
            parameters?.state = state  // a restarted process starts from it
            wake(&effects)
        case .log(let entry):
            effects.append(.appLog("\(entry.level): \(entry.message)"))
        case .unknownRequest(let id, let method):
            broke("refused: unknown method \(method)", &effects)
            effects.append(.write(.failure(id: id, RPCError(code: RPCError.methodNotFound, message: "unknown method \(method)"))))
        case .unknownNotification(let method):
            guard warnedNotifications.count < Self.ruleBreaksHeld, warnedNotifications.insert(method).inserted else { return }
            let warning = AppToHost.warning(forUnknown: method)
            effects.append(.log("warning: " + warning))
            updates.warnings.append(warning)
            wake(&effects)
        }
    }

    private mutating func initialized(_ result: InitializeResult, _ effects: inout [Effect]) {
        guard let version = result.version, version.canTalk(to: .current) else {
            phase = .stopped
            let spoken = result.protocolVersion.isEmpty ? "no protocol version" : "protocol \(result.protocolVersion)"
            broke("initialize answered with \(spoken); this TermCanvas speaks \(ProtocolVersion.current)", &effects)
            setStatus(.stopped("speaks \(spoken); this TermCanvas speaks \(ProtocolVersion.current)"), &effects)
            signal(SIGKILL, because: "it speaks another protocol", &effects)
            return
        }
        phase = .running(Running())
        setStatus(.running, &effects)
        if let view = result.view { show(view, &effects) }
        // What changed while it started.
        if let size = pane.size, size != parameters?.size { effects.append(.write(.resize(size))) }
        if pane.focused != parameters?.focused { effects.append(.write(.focus(pane.focused))) }
        if pane.visible != parameters?.visible { effects.append(.write(.visible(pane.visible))) }
    }

    /// Hands a view to the pane; what it refuses of it (numbers out of range) is logged when it
    /// changes, not for every view an app sends many times a second.
    private mutating func show(_ view: ViewUpdate, _ effects: inout [Effect]) {
        let refusals = view.root.refusals
        if refusals != loggedRefusals {
            loggedRefusals = refusals
            for refusal in refusals.prefix(Self.refusalsLogged) { broke("refused a node of its view: \(refusal)", &effects) }
            if refusals.count > Self.refusalsLogged { broke("refused \(refusals.count - Self.refusalsLogged) more nodes", &effects) }
        }
        updates.view = view
        wake(&effects)
    }

    private mutating func publish(_ publish: Publish, bytes: Int, now: ContinuousClock.Instant, _ effects: inout [Effect]) {
        guard permissions.publish.contains(publish.name) else {
            refuse("publish of \(publish.name), which it did not declare or was not granted", &effects)
            return
        }
        guard bytes <= Self.maximumPublishBytes else {
            refuse("publish of \(publish.name) of \(bytes) bytes (the limit is \(Self.maximumPublishBytes))", &effects)
            return
        }
        let rate = Double(limits.publishesPerSecond)
        var pace = throttle.pace ?? TokenBucket(rate: rate, burst: rate, now: now)
        defer { throttle.pace = pace }
        guard updates.publishes.count < Self.maximumHeldPublishes, pace.take(now: now) == nil else {
            throttle.droppedSinceReport += 1
            if !throttle.reportPending {
                throttle.reportPending = true
                effects.append(.schedule(.throttleReport, afterSeconds: 1))
            }
            return
        }
        updates.publishes.append(publish)
        wake(&effects)
    }

    /// A publish refused: said in the log, counted for the pane's title.
    private mutating func refuse(_ what: String, _ effects: inout [Effect]) {
        broke("refused: \(what)", &effects)
        updates.refused += 1
    }

    /// A rule of the protocol the app broke: said in its log, and handed on with its updates
    /// (`termcanvas apps try` fails on it). At most `ruleBreaksHeld` wait to be taken.
    private mutating func broke(_ rule: String, _ effects: inout [Effect]) {
        effects.append(.log(rule))
        if updates.ruleBreaks.count < Self.ruleBreaksHeld { updates.ruleBreaks.append(rule) }
        wake(&effects)
    }

    /// True when `path` lies under a granted backend prefix (at a segment boundary).
    func permits(_ path: String) -> Bool {
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        guard !bare.split(separator: "/").contains(".."), !bare.contains("%") else { return false }
        return permissions.http.contains { prefix in bare == prefix || bare.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/") }
    }

    // MARK: Status

    private var currentStatus: AppStatus?

    private mutating func setStatus(_ status: AppStatus, _ effects: inout [Effect]) {
        guard status != currentStatus else { return }
        currentStatus = status
        updates.status = status
        wake(&effects)
    }

    private mutating func wake(_ effects: inout [Effect]) {
        guard !woken else { return }
        woken = true
        effects.append(.wake)
    }

    /// `exit 1`, `killed by signal 9 (SIGKILL)`.
    static func describe(_ status: Int32) -> String {
        guard status < 0 else { return "exit \(status)" }
        let signal = -status
        return "killed by signal \(signal)" + (signalNames[signal].map { " (\($0))" } ?? "")
    }

    /// The names of the signals an app or the dashboard is likely to end by.
    static let signalNames: [Int32: String] = [
        SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGINT: "SIGINT", SIGBUS: "SIGBUS",
        SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ: a file past its limits.disk", SIGPIPE: "SIGPIPE", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGFPE: "SIGFPE", SIGHUP: "SIGHUP",
    ]

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int(value * 1000)) ms" : value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
