import CanvasCore
import CanvasStyle
import CanvasUI
import FoundationEssentials
import struct ServerAPI.AppHealth
import AppModel
import MicroAppProtocol

/// The pane of any micro-app that is not compiled in: a process speaking the micro-app protocol
/// or a sampled command. It draws the app's view tree, sends it keys, sizes, focus and the bus
/// events it subscribed to, and publishes what it is allowed to; it never waits for it.
public struct MicroAppWidget: Widget {
    /// A catalog entry for an installed app; `connect` makes each pane's connection. A remote
    /// app's panes start with the `health` the registry reported.
    public static func descriptor(for app: InstalledApp, health: AppHealth? = nil,
                                  connect: @escaping @MainActor @Sendable (InstalledApp) -> any MicroAppConnection) -> WidgetDescriptor {
        WidgetDescriptor(kind: AppKind(app.id), name: app.manifest.name, summary: app.manifest.description,
                         version: app.manifest.version,
                         minimumSize: Size(width: app.manifest.minimumSize.width, height: app.manifest.minimumSize.height),
                         isMicroApp: true) { config, state in
            MicroAppWidget(app: app, connection: connect(app), config: config, state: state, health: health)
        }
    }

    let app: InstalledApp
    private let connection: any MicroAppConnection
    /// Its settings' values as the layout keeps them (`config:`).
    private var values: WidgetValues
    public private(set) var status: AppStatus = .waiting
    private(set) var view: ViewUpdate?
    private var savedState: JSONValue
    /// The text of each `input` node as the user edits it; its first node has the keys.
    private var inputs: [String: TextField] = [:]
    private var size = Size.zero
    private var focused = false
    /// How far the question of what the app may do is scrolled (↑↓) in a pane too short for it.
    private var questionScroll = 0
    private var lastDelivered = 0
    /// Publishes refused (not granted, too big, over its rate) since the pane last had the focus:
    /// its title says how many until it has it again.
    private(set) var refusedPublishes = 0
    /// A remote app's health as the registry last reported it (`RegistryLoaded`); nil for a local app.
    private(set) var health: AppHealth?

    public init(app: InstalledApp, connection: any MicroAppConnection, config: WidgetValues = [:], state: WidgetValues = [:],
                health: AppHealth? = nil) {
        self.app = app
        self.connection = connection
        self.health = app.isRemote ? health : nil
        values = config
        savedState = state["app"].flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) } ?? .null
    }

    private var manifest: AppManifest { app.manifest }

    /// The app's name and state; a remote app's also says the version this pane mounted and,
    /// while it runs or waits for its entry, the entry's health (`up`, `down since 14:02`); a
    /// package's says its version, and that it was withdrawn from its registry when it was.
    public var title: String {
        let withdrawn = app.origin?.withdrawnAt == nil ? "" : " (withdrawn)"
        let name = app.isRemote || app.origin != nil ? "\(manifest.name) \(manifest.version)\(withdrawn)" : manifest.name
        switch status {
        case .needsGrant: return "\(name) · asks for permission"
        case .refused: return "\(name) · not allowed"
        case .stopped: return "\(name) · stopped"
        case .paused: return "\(name) · paused"
        default: break
        }
        let refused = refusedPublishes > 0 ? " · \(refusedPublishes) refused" : ""
        if let health = shownHealth { return "\(name) · \(health.label())\(refused)" }
        switch status {
        case .starting: return "\(name) · starting"
        case .notResponding: return "\(name) · not responding\(refused)"
        case .restarting(let exit, _): return "\(name) · \(exit), restarting"
        default: return name + refused
        }
    }

    /// The health worth a title: any but `unknown`; `up` only while the app runs, since a session
    /// being restarted says more than an entry that answers its health checks.
    private var shownHealth: AppHealth? {
        guard let health, health.state != .unknown else { return nil }
        switch (health.state, status) {
        case (.up, .running), (.up, .waiting), (.down, _), (.degraded, _): return health
        default: return nil
        }
    }

    public var subscriptions: [EventPattern] {
        let own = manifest.subscribes.compactMap(EventPattern.init)
        return app.isRemote ? own + [.exact(RegistryLoaded.name)] : own
    }
    public var capturesText: Bool { focused && status == .running && focusedInput != nil }
    /// Until its first view, unless it will not start without the user (a grant, a paused
    /// start) or has stopped: then what the pane says is its content.
    public var isWaitingForContent: Bool {
        guard view == nil else { return false }
        switch status {
        case .waiting, .starting, .running: return true
        case .paused, .needsGrant, .refused, .notResponding, .restarting, .stopped: return false
        }
    }
    public var config: WidgetValues { values }

    /// The settings its manifest declares, with the pane's values (`s` in arrange mode).
    public var settings: [WidgetSetting] {
        manifest.settings.map { setting in
            WidgetSetting(key: setting.name, label: setting.help.isEmpty ? setting.name : setting.help,
                          value: values[setting.name].flatMap { setting.choices.contains($0) ? $0 : nil } ?? setting.defaultValue,
                          choices: setting.choices)
        }
    }

    /// The next choice of setting `key`; the app hears of it at once (`settings`) and starts with
    /// it from now on.
    public mutating func cycleSetting(_ key: String) throws {
        guard let setting = settings.first(where: { $0.key == key }) else { return }
        values[key] = setting.nextValue
        connection.send(.settings(manifest.settingValues(values)))
    }

    public var state: WidgetValues {
        guard manifest.keepsState, savedState != .null, let data = try? JSONEncoder().encode(savedState) else { return [:] }
        return ["app": String(decoding: data, as: UTF8.self)]
    }

    public mutating func mount(_ context: WidgetContext) throws -> WidgetEffects {
        let parameters = InitializeParams(
            instance: "\(manifest.id)-\(context.pane.rawValue)", appID: manifest.id, appVersion: manifest.version,
            size: ViewSize(width: size.width, height: size.height), focused: focused, visible: true,
            roles: ThemeRole.allCases.map(\.rawValue), settings: manifest.settingValues(values),
            state: manifest.keepsState ? savedState : .null, permissions: .none,
            events: context.events.latest(matching: manifest.subscribes.compactMap(EventPattern.init)).map(Self.params))
        connection.start(parameters, wake: context.notify)
        return .none
    }

    public mutating func unmount() {
        connection.stop()
    }

    public mutating func resize(to size: Size) {
        self.size = size
        connection.send(.resize(ViewSize(width: size.width, height: size.height)))
    }

    public mutating func focusChanged(to focused: Bool) {
        self.focused = focused
        if focused { refusedPublishes = 0 }
        connection.send(.focus(focused))
    }

    public mutating func visibilityChanged(to visible: Bool) {
        connection.send(.visible(visible))
    }

    public mutating func handle(_ input: InputEvent) throws -> InputResult {
        guard case .key(let key) = input else { return .ignored }
        switch status {
        case .needsGrant, .refused:
            if case .needsGrant = status, key.code == .down || key.code == .up {
                questionScroll = max(0, questionScroll + (key.code == .down ? 1 : -1))
                return .handled
            }
            if key == .char("y") {
                connection.grant()
            } else if key == .char("n"), case .needsGrant = status {
                connection.refuse()
            } else {
                return .ignored
            }
            return .handled
        case .stopped, .paused:
            guard key == .char("r") else { return .ignored }
            connection.restart()
            return .handled
        case .notResponding:
            guard key == .char("r") else { return forward(key) }
            connection.restart()
            return .handled
        case .running:
            return forward(key)
        case .waiting, .starting, .restarting:
            return .ignored
        }
    }

    /// `app.restart`: starts the app afresh whatever its state, with its saved state.
    public mutating func perform(_ command: CommandID) throws -> WidgetEffects {
        if command == .restartApp { connection.restart() }
        return .none
    }

    /// Sends a key to the app, or edits its input field, whose Enter sends `input.submit`.
    private mutating func forward(_ key: Key) -> InputResult {
        if let id = focusedInput {
            if key == .enter {
                let text = inputs[id]?.text ?? ""
                inputs[id] = TextField("")
                connection.send(.inputSubmit(id: id, value: text))
                return .handled
            }
            var field = inputs[id] ?? TextField("")
            // As in chat: Ctrl-E on an empty line is the canvas's (arrange mode).
            if key == .ctrl("e"), field.text.isEmpty { return .ignored }
            if field.edit(key) {
                inputs[id] = field
                return .handled
            }
        }
        connection.send(.key(name: key.name, text: key.text.map(String.init)))
        return .handled
    }

    public mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects {
        // Overlapping patterns (`todo.*` and `todo.item.created`) deliver an event once each.
        guard event.sequence != lastDelivered else { return .none }
        lastDelivered = event.sequence
        if let loaded = event.payload as? RegistryLoaded {
            // The pane's own news, not the app's: its health.
            if let info = loaded.apps.first(where: { $0.id == manifest.id }) { health = info.health }
            return .none
        }
        connection.send(.busEvent(Self.params(event)))
        return .none
    }

    /// A canvas event as an app hears it.
    static func params(_ event: CanvasEvent) -> BusEventParams {
        BusEventParams(name: event.name.rawValue, source: event.source.map { "pane:\($0.rawValue)" } ?? "canvas",
                       time: iso(event.time), summary: event.summary, payload: payload(of: event.payload))
    }

    /// A fault switch for tests of what follows a crash (`TERMCANVAS_TEST_TRAP`): a view holding a
    /// text node of exactly this text ends the dashboard with a trap, as a bug would.
    public static var trapText: String?

    /// Takes what the app sent: its view, status and state, and the events it publishes.
    public mutating func notified() throws -> WidgetEffects {
        let updates = connection.takeUpdates()
        if let status = updates.status { self.status = status }
        if let view = updates.view, let trap = Self.trapText, view.root.holdsText(trap) {
            preconditionFailure("the fault switch TERMCANVAS_TEST_TRAP was hit")
        }
        if let view = updates.view, view != self.view {
            self.view = view
            adoptInputs(of: view.root)
        }
        if let state = updates.state { savedState = state }
        var effects = WidgetEffects()
        for publish in updates.publishes {
            guard let name = EventName(rawValue: publish.name) else { continue }
            effects.publish(AppEventPublished(eventName: name, app: manifest.id, payload: publish.payload, summary: publish.summary ?? ""))
        }
        if updates.throttled > 0 { effects.publish(AppThrottled(app: manifest.id, dropped: updates.throttled)) }
        refusedPublishes += updates.refused + updates.throttled
        for crash in updates.crashes { effects.publish(AppCrashed(app: manifest.id, status: crash)) }
        return effects
    }

    public func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        let minimum = manifest.minimumSize
        guard buffer.size.width >= minimum.width, buffer.size.height >= minimum.height else {
            buffer.write("Needs at least \(minimum.width)×\(minimum.height)", at: .zero, style: theme[.muted])
            return
        }
        var message = statusLines.flatMap { line in
            TextWrap.lines(line.text, width: buffer.size.width).map { (text: $0, role: line.role) }
        }
        if case .needsGrant = status, message.count > buffer.size.height, let first = statusLines.first {
            let head = TextWrap.lines(first.text, width: buffer.size.width).count
            message = Self.scrolled(message, head: head, rows: buffer.size.height, width: buffer.size.width, by: questionScroll)
        }
        let area = Rect(x: 0, y: 0, width: buffer.size.width, height: buffer.size.height - message.count)
        if let view, !area.isEmpty {
            ViewRenderer(theme: theme, focused: focused, inputs: inputs, typingIn: focusedInput).draw(view.root, in: area, into: &buffer)
        } else if view == nil, case .running = status {
            buffer.write("Waiting for its first view…", at: .zero, style: theme[.muted])
        }
        let top = view == nil ? 0 : area.height
        for (row, line) in message.enumerated() {
            let y = top + row
            guard y < buffer.size.height else { break }
            buffer.write(line.text, at: Point(x: 0, y: y), style: theme[line.role])
        }
    }

    /// A security question is read whole: in a pane too short for it, its first `head` lines (the
    /// keys that answer) stay, the rest scrolls by `offset` (↑↓), and the last row says how much
    /// more there is.
    static func scrolled(_ lines: [(text: String, role: ThemeRole)], head: Int, rows: Int, width: Int,
                         by offset: Int) -> [(text: String, role: ThemeRole)] {
        guard rows >= head + 2, lines.count > rows else { return Array(lines.prefix(max(0, rows))) }
        let body = lines.dropFirst(head)
        let room = rows - head - 1
        let start = min(offset, body.count - room)
        let left = body.count - start - room
        let more = left > 0 ? "↓ \(left) more line\(left == 1 ? "" : "s") · ↑↓ scroll" : "the end · ↑ scrolls back"
        return lines.prefix(head) + body.dropFirst(start).prefix(room) + [(DisplayWidth.clipped(more, to: width), .accent)]
    }

    /// What the pane says about the app beside (or instead of) its view.
    private var statusLines: [(text: String, role: ThemeRole)] {
        switch status {
        case .waiting, .running:
            return []
        case .starting:
            return view == nil ? [("Starting…", .muted)] : []
        case .needsGrant(let asked, let unsandboxed):
            // What to press first, so that a small pane still shows it.
            var lines: [(String, ThemeRole)] = [("\(manifest.name) \(manifest.version) asks to run: y allows · n refuses", .accent)]
            if app.isRemote {
                lines.append(("It runs at its entry, a server of your team's registry, and gets the keys you type in its pane.", .warning))
            } else if let unsandboxed {
                lines.append((unsandboxed, .warning))
            } else {
                lines.append(("It runs in a sandbox with what is listed here:", .text))
            }
            lines += asked.inWords.map { ("• " + $0, .text) }
            if !manifest.environment.isEmpty { lines.append(("• see the variables " + manifest.environment.joined(separator: ", "), .text)) }
            if manifest.workingDirectory != "." { lines.append(("• run in " + manifest.workingDirectory, .text)) }
            if !app.isRemote {
                lines.append(("• " + manifest.limits.inWords, .text))
                if unsandboxed == nil { lines.append(("• nothing else of your files, network or processes", .text)) }
            }
            return lines
        case .refused:
            return [("Not allowed to run.", .warning), ("y allows it · Ctrl-E x removes the pane", .muted)]
        case .notResponding(let reason):
            return [("Not responding: \(reason) · r restarts it", .warning)]
        case .restarting(let exit, let delay):
            return [("\(exit); restarting in \(delay) s", .warning)]
        case .stopped(let reason):
            return [("Stopped: \(reason)", .error), ("r starts it again", .muted)]
        case .paused(let reason):
            return [("\(manifest.name) \(reason)", .warning)]
        }
    }

    /// The first `input` node of the view, which gets the keys.
    private var focusedInput: String? { view.flatMap { Self.firstInput(in: $0.root) } }

    /// Keeps the text being edited in fields that stay; a new field starts from the app's value.
    private mutating func adoptInputs(of root: ViewNode) {
        var kept: [String: TextField] = [:]
        Self.forEachInput(in: root) { id, value in kept[id] = inputs[id] ?? TextField(value) }
        inputs = kept
    }

    private static func firstInput(in node: ViewNode) -> String? {
        var first: String?
        forEachInput(in: node) { id, _ in if first == nil { first = id } }
        return first
    }

    private static func forEachInput(in node: ViewNode, _ body: (String, String) -> Void) {
        switch node {
        case .input(let id, let value, _, _): body(id, value)
        case .stack(_, let children): children.forEach { forEachInput(in: $0.node, body) }
        default: break
        }
    }

    /// An event's payload as JSON: a micro-app's as it sent it, a built-in event's encoded.
    static func payload(of event: any BusEvent) -> JSONValue {
        if let published = event as? AppEventPublished { return published.payload }
        guard let encodable = event as? any Encodable, let data = try? JSONEncoder().encode(encodable) else { return .null }
        return (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    }

    private static func iso(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}
