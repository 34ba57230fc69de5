import CalendarTime
import CanvasCore
import CanvasStyle
import Logging

/// The canvas as the user sees it: panes with live widgets, a mode, a status bar and overlays.
///
/// The host does no IO: `update` turns a `HostMessage` (a key, the mouse, a resize, or what
/// earlier IO answered) into state changes and returns the `HostEffect`s it asks for, which
/// `perform` runs; `compose` draws a frame into a `Buffer`. A `Terminal` shows the frames; tests
/// read them as text and check the effects as values.
@MainActor
public final class CanvasHost {
    public internal(set) var manager: CanvasManager
    public internal(set) var mode: HostMode = .normal
    /// The components over the canvas (help, palette, a picker, the quit box over a box left
    /// open), the last on top: it gets the keys.
    var overlays: [any Overlay] = []
    /// What every key does; the dashboard applies the user's key map to it.
    public var commands: CommandTable {
        didSet { modeHints = [:] }
    }
    /// The status bar's hints per mode, and while typing, worked out once per command table.
    var modeHints: [HintSet: [KeyHint]] = [:]
    /// What the palette remembers between openings.
    var palette = PaletteMemory()
    /// Commands run from the palette, most recent first: the palette lists them first.
    public var recentCommands: [CommandID] { palette.recentCommands }
    public internal(set) var size: Size
    public internal(set) var notice: Notice? {
        didSet {
            guard let notice, notice != oldValue else { return }
            let now = clock.now()
            noticeLog.append(notice, at: NoticeLog.time(secondsIntoDay: Int(now.timeIntervalSince1970.rounded(.down)) + clock.secondsFromGMT(now)))
        }
    }
    /// Every notice of the session, for the messages box (Ctrl-G).
    public private(set) var noticeLog = NoticeLog()
    /// Whether the loop ends, and how far saving the layout on quit got.
    var quitting = Quitting()
    public internal(set) var theme: Theme {
        didSet { forgetDrawnPanes() }
    }
    /// The day the panes' drawn insides were drawn on.
    var drawnOn: CalendarDate?
    /// How long this start took to show the canvas and each pane.
    var loadTiming = LoadTiming()
    /// The widgets the `a` catalog offers and panes may show; `catalogSource` updates it from
    /// the server's registry (`setCatalog`).
    public internal(set) var catalog: WidgetCatalog
    public let bus: EventBus
    /// Where layouts and themes are kept; nil runs the canvas without persistence.
    public let library: (any LayoutLibrary)?
    /// Runs the library's reads and writes and the generator's runs; what they answer, and
    /// what others post, arrives in its mailbox.
    public let io: HostIO
    let clock: CanvasClock
    let logger: Logger
    var mounted: [PaneID: MountedWidget] = [:]
    /// A pane being dragged with the mouse in arrange mode.
    var drag: PaneDrag?
    /// What the host is connected to outside the canvas.
    let ports: HostPorts
    /// The shared canvas open, if any, and what the server said of shared canvases.
    var sharedCanvas = SharedCanvasMachine()
    /// Mounts so far: each mount has its own number.
    var mounts = 0
    /// "New micro-app…" boxes opened so far: each box's generator runs are told from others' by
    /// its number.
    var newAppBoxes = 0
    /// The effects asked for during the current `update`, handed out when it returns.
    var emitted: [HostEffect] = []
    /// Apps written, installed or installed again since the dashboard started: a catalog built
    /// again (from the registry) must keep them.
    public internal(set) var addedApps: [WidgetDescriptor] = []

    /// The smallest pane, in cells, that still shows a border and one line inside.
    public static let minimumPaneCells = Size(width: 8, height: 3)

    public convenience init(
        layout: LayoutData, catalog: WidgetCatalog, bus: EventBus, clock: CanvasClock,
        theme: Theme, logger: Logger, size: Size, library: (any LayoutLibrary)? = nil, commands: CommandTable? = nil,
        ports: HostPorts = HostPorts()
    ) throws(CanvasError) {
        self.init(manager: try CanvasManager(layout: layout), catalog: catalog, bus: bus, clock: clock,
                  theme: theme, logger: logger, size: size, library: library, commands: commands, ports: ports)
    }

    /// Starts the canvas from a manager, e.g. one restored with its undo history. What mounting
    /// its widgets asks for waits with the other effects not yet handed out: the next
    /// `restoreHistory()` or `update` returns it (the app loop's first update is the terminal's size).
    public init(
        manager: CanvasManager, catalog: WidgetCatalog, bus: EventBus, clock: CanvasClock,
        theme: Theme, logger: Logger, size: Size, library: (any LayoutLibrary)?, io: HostIO = HostIO(),
        commands: CommandTable? = nil, ports: HostPorts = HostPorts()
    ) {
        self.commands = commands ?? CommandTable.standard(for: catalog)
        self.ports = ports
        self.io = io
        self.manager = manager
        self.library = library
        self.catalog = catalog
        self.bus = bus
        self.clock = clock
        self.theme = theme
        self.logger = logger
        self.size = size
        reconcileWidgets()
    }

    /// Tells every widget the size of its pane's inside when it changed, so that `compose()`
    /// only reads state. Runs after every input and message.
    func resizeWidgets() {
        for pane in manager.panes {
            let inside = cellRect(of: pane).inset(by: 1)
            guard !inside.isEmpty, mounted[pane.id]?.contentSize != inside.size else { continue }
            mounted[pane.id]?.contentSize = inside.size
            _ = withWidget(pane.id, doing: "resizing its pane") { $0.resize(to: inside.size) }
        }
        tellFocus()
        tellVisibility()
    }

    /// Tells widgets when the canvas stops being drawn (a terminal too small for it) and again.
    private func tellVisibility() {
        let visible = !isTooSmall
        for id in mounted.keys where mounted[id]?.toldVisible != visible {
            mounted[id]?.toldVisible = visible
            _ = withWidget(id, doing: "showing or hiding its pane") { $0.visibilityChanged(to: visible) }
        }
    }

    /// Hands a widget the news its outside work has, if it is still the widget that asked.
    func notifyWidget(_ pane: PaneID, mount: Int) {
        guard mounted[pane]?.mount == mount else { return }
        withWidgetEffects(pane, doing: "taking its news (a view, a status, its events)") { try $0.notified() }
    }

    /// Tells widgets whose pane gained or lost the focus, however it moved (a key, a click, a
    /// removed pane, a loaded layout).
    private func tellFocus() {
        let focused = manager.focusedPaneID
        for id in mounted.keys where mounted[id]?.toldFocused != (id == focused) {
            mounted[id]?.toldFocused = id == focused
            _ = withWidget(id, doing: "telling it of the focus") { $0.focusChanged(to: id == focused) }
        }
    }

    /// True when the terminal cannot give every pane its minimum size.
    var isTooSmall: Bool {
        minimumSize().map { !size.contains($0) } ?? false
    }

    /// The arrangement with every widget's current settings and state, ready to persist.
    public func currentLayout() -> LayoutData {
        syncWidgetValues()
        return manager.saveLayout()
    }

    /// Shows a message in the status bar until the next key, e.g. a problem found at start-up.
    public func show(_ notice: Notice) {
        self.notice = notice
    }

    /// The component on top of the canvas, which gets the keys, if any.
    public var overlay: (any Overlay)? { overlays.last }

    /// Handles one message (an input, or what earlier IO answered): every change of state it
    /// makes, and the IO it asks for, to hand to `perform`.
    public func update(_ message: HostMessage) -> [HostEffect] {
        if case .input(let input) = message { handle(input) } else { receive(message) }
        resizeWidgets()
        return takeEmitted()
    }

    /// Runs effects `update` returned, each where it goes: the library's reads and writes and the
    /// generator's requests to `io`, whose answers come back as messages; widgets' requests
    /// to the sync engine; the shared canvas's to the server.
    public func perform(_ effects: [HostEffect]) {
        for effect in effects {
            switch effect {
            case .read(let read): if let library { io.run(read, on: library) }
            case .write(let write): if let library { io.run(write, on: library) }
            case .generator(let request): if let generator = ports.appGenerator { io.run(request, on: generator) }
            case .widgetRequest(let request): ports.widgetRequests(request)
            case .shared(let request): ports.sharedCanvasRequests?(request)
            }
        }
    }

    /// Asks for an effect; `update` hands it out.
    func emit(_ effect: HostEffect) {
        emitted.append(effect)
    }

    func takeEmitted() -> [HostEffect] {
        defer { emitted = [] }
        return emitted
    }

    /// Unmounts every widget and stops the generator; call once when the dashboard closes, and
    /// perform what it returns (then `HostIO.generatorStopped`).
    public func shutdown() -> [HostEffect] {
        emit(.generator(.stop))
        syncWidgetValues()
        closeShared()
        for id in mounted.keys { unmount(id) }
        return takeEmitted()
    }

    /// Where messages reach the app loop.
    public var mailbox: Mailbox { io.mailbox }

    /// The area panes share: everything but the status bar row.
    var canvasArea: Rect { Rect(x: 0, y: 0, width: size.width, height: max(0, size.height - 1)) }

    /// Where a pane sits on screen, in cells.
    /// True when panes of `kind` are a micro-app's, which take the `.microApp` commands.
    func isMicroApp(_ kind: AppKind) -> Bool {
        catalog.descriptor(for: kind)?.isMicroApp == true
    }

    public func cellRect(of pane: Pane) -> Rect {
        manager.grid.cellRect(for: pane.frame, in: canvasArea)
    }

    /// The pane title with its number, e.g. `2 Calendar`.
    public func title(of pane: Pane) -> String {
        let number = manager.number(of: pane.id).map { "\($0) " } ?? ""
        guard let entry = mounted[pane.id] else { return number + pane.app.rawValue }
        guard let widget = entry.widget else { return number + "Unavailable: \(pane.app.rawValue)" }
        return number + widget.title
    }

    // MARK: Arrangement steps

    /// Applies an arrangement step, mounting or unmounting widgets it adds or removes, and
    /// records it in the layout's history on disk.
    /// `explaining` may word a refusal better than the error's own description does.
    func arrange(_ step: String, explaining: (CanvasError) -> String? = { _ in nil },
                 _ change: (inout CanvasManager) throws(CanvasError) -> Void) {
        guard mayArrange() else { return }
        syncWidgetValues()
        let before = manager.saveLayout()
        do {
            try change(&manager)
            reconcileWidgets()
            record(step, before: before)
        } catch {
            notice = .error(explaining(error) ?? "Can't \(step): \(error)")
        }
    }

    /// Announces an arrangement step taken and records it in the layout's history on disk.
    func record(_ step: String, before: LayoutData) {
        if shared != nil { return shareStep(step, before: before) }
        bus.publish(LayoutChanged(step: step))
        emit(.write(.step(step, layout: manager.saveLayout(), before: before)))
    }

    /// Replaces the whole canvas, e.g. with a loaded layout: every widget is mounted afresh.
    func replace(with newManager: CanvasManager) {
        unmountAll()
        closeShared()
        manager = newManager
        reconcileWidgets()
        bus.publish(LayoutChanged(step: "load \(manager.layout.name)"))
    }

    /// Ends a drag and every pane's widget, before the canvas is replaced: each is mounted afresh.
    func unmountAll() {
        drag = nil
        for id in mounted.keys { unmount(id) }
    }

    func changeFocus(_ change: (inout CanvasManager) -> Void) {
        let before = manager.focusedPaneID
        change(&manager)
        if let focused = manager.focusedPane, focused.id != before {
            bus.publish(PaneFocused(pane: focused.id, title: title(of: focused)))
        }
    }
}

/// Which status bar hints: a mode's, with the keys a text field leaves to commands or all of them.
struct HintSet: Hashable {
    let mode: HostMode
    let typing: Bool
}
