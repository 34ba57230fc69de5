import AppPanes
import AppModel
import ArgumentParser
import CanvasCore
import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Logging
import MicroAppHost
import MicroAppProtocol
import PrivateFiles
import Widgets

/// `termcanvas apps try DIR`: an app's edit-run loop without a dashboard. Runs the folder's app in
/// a pane of its own (the same widget, sandbox and rules as on the canvas), hands it keys and
/// canvas events in the order given, prints each view as the pane draws it, and fails with the
/// reason when the app breaks a rule of the protocol.
struct AppsTry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "try",
        abstract: "Run the micro-app in DIR headless, as a pane would: send it keys and events, print what it draws.",
        discussion: """
            Keys and events are sent in the order given, each once the app has answered the last:
              termcanvas apps try apps/pomodoro --size 40x8 --key space --key s
              termcanvas apps try my-app --event calendar.date.selected='{"date":"2026-11-26"}' --key down

            The app runs in its sandbox with none of your files, network or programs unless --grant gives it what its \
            app.yaml asks for; its data folder and log are fresh for each run (--log prints the log). Its http calls \
            get "no backend" (try those in a dashboard). The exit status is 0 when it kept every rule, 1 when it broke \
            one (each is printed), 64 for a mistake in the command.
            """)

    @Argument(help: "The app's folder, or its app.yaml.") var path: String
    @Option(help: "The pane's inside, WIDTHxHEIGHT.") var size = "80x20"
    @Option(name: .customLong("key"), help: "A key to press, by name (down, enter, ctrl+x, a); repeatable.") var keys: [String] = []
    @Option(name: .customLong("event"), help: "A canvas event to hand it, NAME or NAME=JSON; repeatable.") var events: [String] = []
    @Option(name: .customLong("wait"), help: ArgumentHelp("Let time pass, as 500ms, 2s or 1m (a timer's ticks); repeatable, in order with --key and --event.",
                                                          valueName: "DURATION"))
    var waits: [String] = []
    @Option(name: .customLong("setting"), help: ArgumentHelp("A setting its app.yaml declares, NAME=VALUE; repeatable.", valueName: "NAME=VALUE"))
    var settings: [String] = []
    @Option(help: "The state it starts from, as JSON (what it saved with state.save).") var state: String?
    @Flag(help: "Give it the files, network and programs its app.yaml asks for.") var grant = false
    @Flag(help: "Print its log at the end.") var log = false
    @Flag(help: "One JSON object per step (its view as lines, publishes, state, problems), for scripts.") var json = false

    /// One thing to do to the app.
    enum Step {
        case key(String, Key)
        case event(EventName, JSONValue)
        case wait(String, Duration)
    }

    func validate() throws {
        _ = try Self.size(size)
        _ = try Self.steps(keys: keys, events: events, waits: waits, order: CommandLine.arguments)
        _ = try state.map { try Self.json($0, what: "--state") }
        // Settings are checked against the app's own (a folder that cannot be read is said in run).
        if !settings.isEmpty, let read = try? AppFolders.read(AppFolders.folder(named: path), isShipped: false) {
            _ = try Self.settings(settings, of: read.manifest)
        }
    }

    func run() async throws {
        let pane = try Self.size(size)
        let steps = try Self.steps(keys: keys, events: events, waits: waits, order: CommandLine.arguments)
        let start = try state.map { try Self.json($0, what: "--state") } ?? .null
        let source = try AppFolders.folder(named: path)
        let read = try AppFolders.read(source, isShipped: false)
        guard !read.isRemote, read.manifest.entry == nil else {
            throw CommandError("\(read.id) is a remote app (its manifest has entry:): it runs at its entry; try it in a dashboard")
        }
        let values = try Self.settings(settings, of: read.manifest)
        var manifest = read.manifest
        if !grant { manifest.machine = .none }
        let app = InstalledApp(manifest: manifest, folder: read.folder, digest: read.digest, isShipped: false)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("termcanvas-try-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try PrivatePath.makeDirectory(folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let table = try await Self.keyTable()
        let failed = try await Self.drive(app, asked: read.manifest.machine, size: pane, settings: values, state: start, steps: steps, table: table,
                                          folder: folder, output: json ? .json : .text, printLog: log)
        if failed { throw ExitCode.failure }
    }

    enum Output {
        case text
        case json
    }

    @MainActor
    static func drive(_ app: InstalledApp, asked: MachineAccess, size: Size, settings: WidgetValues, state: JSONValue, steps: [Step], table: CommandTable,
                      folder: URL, output: Output, printLog: Bool) async throws -> Bool {
        let manifest = app.manifest
        let access = manifest.machine.inWords
        let withheld = asked.inWords.filter { !access.contains($0) }
        if output == .text {
            Swift.print(TerminalText.safe("\(manifest.name) \(manifest.version) (\(app.id)) in a \(size.width)×\(size.height) pane, "
                                          + (access.isEmpty ? "with none of your files, network or programs"
                                                            : "with what its app.yaml asks for: " + access.joined(separator: "; "))))
            Swift.print(TerminalText.safe("It is held to " + manifest.limits.inWords))
            if let warning = SandboxSupport.current.warning { Swift.print(TerminalText.safe(warning)) }
            if !withheld.isEmpty {
                Swift.print(TerminalText.safe("Without what its app.yaml asks for (\(withheld.joined(separator: "; "))): --grant gives it that"))
            }
            if let hint = manifest.memoryHint { Swift.print(TerminalText.safe("Careful: " + hint)) }
            let minimum = manifest.minimumSize
            if size.width < minimum.width || size.height < minimum.height {
                Swift.print("Its minSize is \(minimum.width)×\(minimum.height): a smaller pane shows only that")
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let pane = HeadlessPane(app: app, size: size, settings: settings, state: state, environment: environment, folder: folder)
        var problems: [String] = []
        let report = { (title: String, step: HeadlessPane.Step) in
            problems += step.problems.map { "\(title): \($0)" }
            Self.show(title, step, size: size, output: output)
        }
        let first = try await pane.start()
        report("first view", first)
        // Nothing more is asked of an app that did not start.
        if pane.isRunning {
            for step in steps {
                switch step {
                case .key(let name, let key):
                    if let kept = pane.canvasKeeps(key, in: table) {
                        Self.note("key \(name)", "the canvas keeps it (\(kept.rawValue)): the app never receives it", output: output)
                        continue
                    }
                    report("key \(name)", try await pane.press(key))
                case .event(let name, let payload):
                    guard pane.hears(name) else {
                        Self.note("event \(name.rawValue)", "not delivered: its app.yaml does not subscribe to it", output: output)
                        continue
                    }
                    report("event \(name.rawValue)", try await pane.deliver(name, payload: payload))
                case .wait(let text, let duration):
                    report("wait \(text)", try await pane.wait(duration))
                }
                guard pane.isRunning else { break }
            }
        }
        await pane.stop()
        if printLog {
            for line in pane.log.split(separator: "\n") { Swift.print(TerminalText.safe("log: " + line)) }
        }
        for problem in problems {
            Console.error((TerminalText.safe("termcanvas: \(app.id) broke a rule at \(problem)") + "\n"))
        }
        if !problems.isEmpty, !printLog {
            Console.error((TerminalText.safe("termcanvas: run it again with --log to see its log") + "\n"))
        }
        return !problems.isEmpty
    }

    /// A step as text (the pane in a frame, then what it published and saved) or as one JSON line.
    private static func show(_ title: String, _ step: HeadlessPane.Step, size: Size, output: Output) {
        switch output {
        case .text:
            Swift.print("── \(title) ──")
            Swift.print("┌" + String(repeating: "─", count: size.width) + "┐")
            for line in step.view { Swift.print("│\(line)│") }
            Swift.print("└" + String(repeating: "─", count: size.width) + "┘")
            for publish in step.published { Swift.print(TerminalText.safe("published \(publish.name) \(Self.text(publish.payload))")) }
            if let state = step.state { Swift.print(TerminalText.safe("saved state \(Self.text(state))")) }
            for warning in step.warnings { Swift.print(TerminalText.safe("warning: \(warning)")) }
        case .json:
            var object: [String: JSONValue] = ["step": .string(title), "view": .array(step.view.map(JSONValue.string)),
                                               "published": .array(step.published.map { .object(["name": .string($0.name), "payload": $0.payload]) }),
                                               "problems": .array(step.problems.map(JSONValue.string)),
                                               "warnings": .array(step.warnings.map(JSONValue.string))]
            if let state = step.state { object["state"] = state }
            Swift.print(TerminalText.safe(Self.text(.object(object))))
        }
    }

    private static func note(_ title: String, _ note: String, output: Output) {
        switch output {
        case .text: Swift.print("── \(title) ── \(note)")
        case .json: Swift.print(Self.text(.object(["step": .string(title), "note": .string(note)])))
        }
    }

    /// JSON on one line, keys sorted, every control character escaped.
    private static func text(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The key map in use (the user's `keys.yaml` over the defaults), for the keys the canvas keeps.
    @MainActor
    private static func keyTable() throws -> CommandTable {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let logger = Logger(label: "termcanvas.try", factory: { _ in SwiftLogNoOpLogHandler() })
        var composition = Composition(paths: paths, logger: logger)
        return composition.commandTableOrDefaults(for: WidgetCatalog.standard(apps: []))
    }

    // MARK: Reading the command line

    /// `80x20` (or `80×20`), each side 1…1000.
    static func size(_ text: String) throws -> Size {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (1...1000).contains(width), (1...1000).contains(height) else {
            throw ValidationError("--size \(TerminalText.safe(text)) is not WIDTHxHEIGHT (each 1 to 1000), e.g. 80x20")
        }
        return Size(width: width, height: height)
    }

    /// The keys and events in the order the command line gives them: ArgumentParser keeps each
    /// option's values in order, and `order` (the arguments) says how the two interleave.
    /// The kinds of step, by their options, in the order `order` (the command line) gives them.
    enum StepKind: String, CaseIterable {
        case key = "--key", event = "--event", wait = "--wait"
    }

    static func steps(keys: [String], events: [String], waits: [String] = [], order: [String]) throws -> [Step] {
        var keysLeft = keys[...]
        var eventsLeft = events[...]
        var waitsLeft = waits[...]
        var steps: [Step] = []
        var kinds: [StepKind] = order.compactMap { argument in
            StepKind.allCases.first { argument == $0.rawValue || argument.hasPrefix($0.rawValue + "=") }
        }
        // Any not found in `order` (it cannot happen from a shell) keep keys first.
        for (kind, count) in [(StepKind.key, keys.count), (.event, events.count), (.wait, waits.count)] {
            kinds += Array(repeating: kind, count: max(0, count - kinds.filter { $0 == kind }.count))
        }
        for kind in kinds {
            if kind == .wait, let text = waitsLeft.popFirst() {
                guard let duration = Self.duration(text) else {
                    throw ValidationError("--wait \(TerminalText.safe(text)): give a time of 100ms to 10m, as 500ms, 2s or 1m")
                }
                steps.append(.wait(text, duration))
            }
            let isKey = kind == .key
            if isKey, let name = keysLeft.popFirst() {
                guard let key = Key(name: name) else {
                    throw ValidationError("--key \(TerminalText.safe(name)): no key has that name (a, A, space, enter, escape, backspace, up, down, "
                                          + "left, right, home, end, pageup, pagedown, f1…f12, with ctrl+, alt+ or shift+ before)")
                }
                steps.append(.key(name, key))
            } else if kind == .event, let text = eventsLeft.popFirst() {
                let (name, payload) = text.firstIndex(of: "=").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) } ?? (text, "{}")
                guard let eventName = EventName(rawValue: name) else {
                    throw ValidationError("--event \(TerminalText.safe(name)): an event is named source.entity.action (calendar.date.selected)")
                }
                steps.append(.event(eventName, try json(payload, what: "--event \(name)")))
            }
        }
        return steps
    }

    /// `500ms`, `2s`, `1m` as a duration, within 100 ms and 10 minutes.
    static func duration(_ text: String) -> Duration? {
        let (number, unit): (Substring, Int64)
        if text.hasSuffix("ms") { (number, unit) = (text.dropLast(2), 1) }
        else if text.hasSuffix("s") { (number, unit) = (text.dropLast(), 1_000) }
        else if text.hasSuffix("m") { (number, unit) = (text.dropLast(), 60_000) }
        else { return nil }
        guard number.count <= 6, let value = Int64(number), (100...600_000).contains(value * unit) else { return nil }
        return .milliseconds(value * unit)
    }

    /// `--setting NAME=VALUE`s as the pane's settings: each a setting the app declares, with one
    /// of its choices.
    static func settings(_ given: [String], of manifest: AppManifest) throws -> WidgetValues {
        var values: WidgetValues = [:]
        let declared = manifest.settings.map(\.name).joined(separator: ", ")
        for text in given {
            guard let equals = text.firstIndex(of: "=") else { throw ValidationError("--setting \(TerminalText.safe(text)): give NAME=VALUE") }
            let (name, value) = (String(text[..<equals]), String(text[text.index(after: equals)...]))
            guard let setting = manifest.settings.first(where: { $0.name == name }) else {
                throw ValidationError(TerminalText.safe("--setting \(name): \(manifest.id) declares no setting \(name)"
                                                        + (declared.isEmpty ? " (it declares none)" : " (it declares: \(declared))")))
            }
            guard setting.choices.contains(value) else {
                throw ValidationError(TerminalText.safe("--setting \(name)=\(value): \(name) is one of \(setting.choices.joined(separator: ", "))"))
            }
            values[name] = value
        }
        return values
    }

    static func json(_ text: String, what: String) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw ValidationError("\(what): \(TerminalText.safe(String(text.prefix(80)))) is not JSON (quote it for the shell: '{\"date\":\"2026-11-26\"}')")
        }
    }
}

extension HeadlessPane {
    /// The canvas command a key runs instead of reaching the app, as a focused micro-app pane in
    /// normal mode routes it; nil when the app gets it.
    func canvasKeeps(_ key: Key, in table: CommandTable) -> CommandID? {
        let contexts: [CommandContext] = [.widget(AppKind(app.id)), .microApp, .normal, .canvas]
        if let command = table.command(for: key, in: contexts, beforeTyping: true) { return command.id }
        if capturesText { return nil }
        return table.command(for: key, in: contexts)?.id
    }
}
