import CalendarTime
import CanvasCore
import CanvasStyle
import Logging

/// The canvas as the user sees it, as a value: panes with live widgets, a mode, a status bar and
/// overlays.
///
/// `update` is its one way in: it turns a `HostMessage` (the start, a key, the mouse, a resize,
/// what earlier IO answered, the end) into state changes and returns the `HostEffect`s it asks
/// for; `compose` draws a frame into a `Buffer`. `CanvasHost` keeps the state and carries the
/// effects out. Events published on the canvas reach its widgets here, in publish order; the
/// bus keeps their log and tells listeners outside the canvas.
@MainActor
public struct HostState {
    public internal(set) var manager: CanvasManager
    public internal(set) var mode: HostMode = .normal
    /// The pane the user zoomed (`pane.zoom`); see `zoomedPane` for when it shows alone.
    var zoomed: PaneID?
    /// Who the dashboard is signed in as, and where, on a team server (`HostStart.account`).
    var account: String?
    /// How the layout shown stands to a preset: as its file has it, its first change is kept
    /// under a name of the user's own (`keepChangesApart`); changed, "Restore the preset" opens
    /// the file again.
    var preset: PresetOrigin? {
        didSet { presetSettings = nil }
    }
    /// The panes' settings as a preset opened with them, widgets' defaults filled in: a setting
    /// changed from these is a change to keep apart. Nil once the preset changed.
    var presetSettings: [PaneID: WidgetValues]?
    var presetNames: Set<String> = []
    /// The components over the canvas (help, palette, a picker, the quit box over a box left
    /// open), the last on top: it gets the keys.
    var overlays: [any Overlay] = []
    /// What every key does, with the user's key map applied.
    public let commands: CommandTable
    /// The status bar's hints per mode, and while typing, worked out once.
    var modeHints: [HintSet: [KeyHint]] = [:]
    /// What the palette remembers between openings.
    var palette = PaletteMemory()
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
    /// The last frame, and what its panes were drawn for.
    var composed = ComposedFrame()
    /// How long this start took to show the canvas and each pane.
    var loadTiming = LoadTiming()
    /// The widgets the `a` catalog offers and panes may show; `catalogSource` updates it from
    /// the server's registry (`setCatalog`).
    public internal(set) var catalog: WidgetCatalog
    var mounted: [PaneID: MountedWidget] = [:]
    /// What the widgets were last told of their panes; nil after a mount or an unmount.
    var toldArrangement: PaneArrangement?
    /// A pane being dragged with the mouse in arrange mode.
    var drag: PaneDrag?
    /// The shared canvas open, if any, and what the server said of shared canvases.
    var sharedCanvas = SharedCanvasMachine()
    /// Mounts so far: each mount has its own number.
    var mounts = 0
    /// "New micro-app…" boxes opened so far: each box's generator runs are told from others' by
    /// its number.
    var newAppBoxes = 0
    /// Apps written, installed or installed again since the dashboard started: a catalog built
    /// again (from the registry) must keep them.
    public internal(set) var addedApps: [WidgetDescriptor] = []
    /// The widgets that listen to events, in the order they were mounted.
    var listeners: [EventListener] = []
    /// Events published on the canvas that its widgets have not been handed yet, oldest first.
    var undelivered = EventCascade()
    /// True while a widget is being called or events handed out: what is published meanwhile
    /// waits its turn, so no widget hears an event while it is still being updated.
    var isDelivering = false
    /// What the message being handled asks of the world; `update` hands it out.
    private var asked: [HostEffect] = []

    /// The canvas's event log and its listeners outside the canvas (the dashboard's).
    let bus: EventBus
    let clock: CanvasClock
    let logger: Logger
    /// What the canvas is connected to outside itself.
    let ports: HostPorts
    /// Whether layouts and themes are kept (a layout library is there).
    let keepsLayouts: Bool
    /// Where widgets' news arrives, as messages.
    let mailbox: Mailbox

    /// The smallest pane, in cells, that still shows a border and one line inside.
    public static let minimumPaneCells = Size(width: 8, height: 3)

    /// A canvas not started yet: `update(.start)` mounts its widgets.
    init(manager: CanvasManager, catalog: WidgetCatalog, commands: CommandTable, theme: Theme, size: Size,
         bus: EventBus, clock: CanvasClock, logger: Logger, ports: HostPorts, keepsLayouts: Bool, mailbox: Mailbox) {
        self.manager = manager
        self.catalog = catalog
        self.commands = commands
        self.theme = theme
        self.size = size
        self.bus = bus
        self.clock = clock
        self.logger = logger
        self.ports = ports
        self.keepsLayouts = keepsLayouts
        self.mailbox = mailbox
    }

    /// Handles one message: every change of state it makes, and the IO it asks for.
    mutating func update(_ message: HostMessage) -> [HostEffect] {
        step { state in
            switch message {
            case .input(let input): state.handle(input)
            case .start(let start): state.begin(start)
            case .shutdown: state.end()
            default: state.receive(message)
            }
        }
    }

    /// Runs one step (a message's handling; in tests, one part of it), tells the widgets their
    /// panes' sizes, and hands out what the step asked for.
    mutating func step(_ body: (inout HostState) -> Void) -> [HostEffect] {
        body(&self)
        resizeWidgets()
        defer { asked = [] }
        return asked
    }

    /// Asks for an effect; `update` hands it out.
    mutating func emit(_ effect: HostEffect) {
        asked.append(effect)
    }

    /// Mounts the widgets; opens the shared canvas the dashboard started on, and asks for the
    /// layout's undo history, when told to.
    private mutating func begin(_ start: HostStart) {
        loadTiming.processStarted = start.processStarted
        notice = start.notice
        account = start.account
        preset = start.preset
        presetNames = start.presetNames
        reconcileWidgets()
        notePresetSettings()
        if let copy = start.shared { openShared(copy) }
        // Start-up shows the layout first and makes undo reach back across the restart a moment later.
        if start.restoringHistory { emit(.read(.history(layout: manager.layout.name))) }
    }

    /// Unmounts every widget and stops the generator, once, as the dashboard closes.
    private mutating func end() {
        emit(.generator(.stop))
        syncWidgetValues()
        closeShared()
        for id in mounted.keys { unmount(id) }
    }

    /// Tells every widget the size of its pane's inside when it changed, so that `compose()`
    /// only reads state. Runs after every input and message; while the arrangement stays as it
    /// was told (most keys, most messages) it compares one value and returns.
    mutating func resizeWidgets() {
        let arrangement = PaneArrangement(size: size, grid: manager.grid, panes: manager.panes.map(\.id), frames: manager.panes.map(\.frame),
                                          focused: manager.focusedPaneID, zoomed: zoomedPane?.id)
        guard arrangement != toldArrangement else { return }
        toldArrangement = arrangement
        for pane in manager.panes {
            let inside = cellRect(of: pane).inset(by: 1)
            guard !inside.isEmpty, mounted[pane.id]?.contentSize.setIfChanged(inside.size) == true else { continue }
            _ = withWidget(pane.id, doing: "resizing its pane") { $0.resize(to: inside.size) }
        }
        tellFocus()
        tellVisibility()
    }

    /// Tells widgets when the canvas stops being drawn (a terminal too small for it) and again.
    private mutating func tellVisibility() {
        let shown = isTooSmall ? [] : Set(shownPanes.map(\.id))
        for id in Array(mounted.keys) {
            let visible = shown.contains(id)
            guard mounted[id]?.toldVisible.setIfChanged(visible) == true else { continue }
            _ = withWidget(id, doing: "showing or hiding its pane") { $0.visibilityChanged(to: visible) }
        }
    }

    /// Hands a widget the news its outside work has, if it is still the widget that asked.
    mutating func notifyWidget(_ pane: PaneID, mount: Int) {
        guard mounted[pane]?.mount == mount else { return }
        withWidgetEffects(pane, doing: "taking its news (a view, a status, its events)") { try $0.notified() }
    }

    /// Tells widgets whose pane gained or lost the focus, however it moved (a key, a click, a
    /// removed pane, a loaded layout).
    private mutating func tellFocus() {
        let focused = manager.focusedPaneID
        for id in Array(mounted.keys) where mounted[id]?.toldFocused.setIfChanged(id == focused) == true {
            _ = withWidget(id, doing: "telling it of the focus") { $0.focusChanged(to: id == focused) }
        }
    }

    /// True when the terminal cannot give every pane its minimum size.
    var isTooSmall: Bool {
        minimumSize().map { !size.contains($0) } ?? false
    }

    /// The arrangement with every widget's current settings and state, ready to persist.
    public mutating func currentLayout() -> LayoutData {
        syncWidgetValues()
        return manager.saveLayout()
    }

    /// The component on top of the canvas, which gets the keys, if any.
    public var overlay: (any Overlay)? { overlays.last }

    /// Commands run from the palette, most recent first: the palette lists them first.
    public var recentCommands: [CommandID] { palette.recentCommands }

    /// The area panes share: everything but the status bar row.
    var canvasArea: Rect { Rect(x: 0, y: 0, width: size.width, height: max(0, size.height - 1)) }

    /// True when panes of `kind` are a micro-app's, which take the `.microApp` commands.
    func isMicroApp(_ kind: AppKind) -> Bool {
        catalog.descriptor(for: kind)?.isMicroApp == true
    }

    /// Where a pane sits on screen, in cells: the whole canvas for the zoomed pane.
    public func cellRect(of pane: Pane) -> Rect {
        pane.id == zoomedPane?.id ? canvasArea : manager.grid.cellRect(for: pane.frame, in: canvasArea)
    }

    /// The pane shown alone over the whole canvas: the zoomed one while it has the focus and the
    /// canvas is not being arranged (a focus moved, a pane removed or a layout loaded ends it).
    var zoomedPane: Pane? {
        guard let zoomed, mode == .normal, zoomed == manager.focusedPaneID else { return nil }
        return manager.pane(zoomed)
    }

    /// The panes on screen: the zoomed one alone, else all of them.
    var shownPanes: [Pane] {
        zoomedPane.map { [$0] } ?? manager.panes
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
    mutating func arrange(_ step: String, explaining: (CanvasError) -> String? = { _ in nil },
                          _ change: (inout CanvasManager) throws(CanvasError) -> Void) {
        guard mayArrange() else { return }
        syncWidgetValues()
        let before = manager.saveLayout()
        do {
            try change(&manager)
            reconcileWidgets()
            record(step, before: before)
        } catch {
            notice = .error(explaining(error) ?? "Can't \(step): \(words(for: error))")
        }
    }

    /// A refused step in the words the panes' titles use (`1 Todo would leave the canvas`), not
    /// the layout file's (`pane #1 at -1,0 6×12 lies outside the grid`).
    func words(for error: CanvasError) -> String {
        func named(_ id: PaneID) -> String { manager.pane(id).map(title(of:)) ?? "pane \(id.rawValue)" }
        switch error {
        case .outOfGrid(let id?, _): return "\(named(id)) would leave the canvas"
        case .belowMinimumSize(let id?, let minimum):
            return "\(named(id)) would be smaller than its minimum, \(minimum.width)×\(minimum.height) grid units"
        case .neighbourAtMinimum(let id): return "\(named(id)) is already at its minimum size"
        case .overlap(let a, let b): return "\(named(a)) and \(named(b)) would overlap"
        default: return error.description
        }
    }

    /// Announces an arrangement step taken and records it in the layout's history on disk.
    mutating func record(_ step: String, before: LayoutData) {
        if shared != nil { return shareStep(step, before: before) }
        var before = before
        if let kept = keepChangesApart() { before.name = kept }
        publish(LayoutChanged(step: step))
        emit(.write(.step(step, layout: manager.saveLayout(), before: before)))
    }

    /// A preset stays as its file has it: its first change renames the canvas to the name
    /// changes are kept under (`default (changed)`), and says so. Returns that name, if so.
    mutating func keepChangesApart() -> String? {
        guard let origin = preset, let kept = origin.changesKeptAs else { return nil }
        manager.rename(to: kept)
        preset = PresetOrigin(preset: origin.preset, changesKeptAs: nil)
        notice = .info("Your changes are kept as \(kept); \(origin.preset) stays the preset (p in arrange mode restores it)")
        return kept
    }

    /// Replaces the whole canvas with a loaded layout: every widget is mounted afresh.
    mutating func replace(with loaded: LoadedLayout) {
        unmountAll()
        closeShared()
        manager = loaded.manager
        preset = loaded.preset
        reconcileWidgets()
        notePresetSettings()
        publish(LayoutChanged(step: "load \(manager.layout.name)"))
    }

    /// Notes a preset's settings as it opened with them (`presetSettings`).
    private mutating func notePresetSettings() {
        presetSettings = preset?.isUnchanged == true ? settingsShown() : nil
    }

    /// Ends a drag and every pane's widget, before the canvas is replaced: each is mounted afresh.
    /// What the canvas was to a preset goes with it.
    mutating func unmountAll() {
        drag = nil
        preset = nil
        for id in mounted.keys { unmount(id) }
    }

    mutating func changeFocus(_ change: (inout CanvasManager) -> Void) {
        let before = manager.focusedPaneID
        change(&manager)
        // As in tmux, going to another pane ends a zoom.
        if manager.focusedPaneID != before { zoomed = nil }
        if let focused = manager.focusedPane, focused.id != before {
            publish(PaneFocused(pane: focused.id, title: title(of: focused)))
        }
    }
}

/// How the canvas starts (`HostMessage.start`).
public struct HostStart: Sendable {
    /// A shared canvas to show in place of the layout, asking the server for its latest state.
    public var shared: SharedCanvasCopy?
    /// Whether to read the layout's undo history (not for a layout read from a file).
    public var restoringHistory: Bool
    /// When the process started, for `canvasLoadTime`; nil measures the panes alone.
    public var processStarted: ContinuousClock.Instant?
    /// How the layout stands to a preset (`LayoutLibrary.load`'s answer for it).
    public var preset: PresetOrigin?
    /// The presets' names: saving under one would hide the preset.
    public var presetNames: Set<String>
    /// What the status bar says first, e.g. a problem found while starting.
    public var notice: Notice?
    /// Who and where, on a team server (`ann@team.example:7450`), said beside the layout's name;
    /// nil on the user's own server.
    public var account: String?

    public init(shared: SharedCanvasCopy? = nil, restoringHistory: Bool = false, processStarted: ContinuousClock.Instant? = nil,
                notice: Notice? = nil, account: String? = nil, preset: PresetOrigin? = nil, presetNames: Set<String> = []) {
        self.shared = shared
        self.restoringHistory = restoringHistory
        self.processStarted = processStarted
        self.notice = notice
        self.account = account
        self.preset = preset
        self.presetNames = presetNames
    }
}

/// Which status bar hints: a mode's, with the keys a text field leaves to commands or all of them.
struct HintSet: Hashable {
    let mode: HostMode
    let typing: Bool
}
