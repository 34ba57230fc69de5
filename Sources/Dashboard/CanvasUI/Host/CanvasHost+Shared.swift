import CanvasCore

/// A canvas shared through a server: the host composes a `SharedCanvasMachine`, hands it every
/// input about the shared canvas (a step taken here, the server's answers, the live stream) and
/// carries out the effects it returns.
extension HostState {
    /// The shared canvas open, when the canvas is one (`open(_:)`).
    public var shared: SharedCanvasCopy? { sharedCanvas.copy }
    /// Who has each shared canvas open, by canvas, as the server last said (for the layout picker).
    public var canvasPresence: [Int64: [String]] { sharedCanvas.presence }

    /// Shows the shared canvas `copy` in place of the canvas, and asks the server for its latest
    /// state (which also sends the edits the copy kept from an earlier run).
    mutating func openShared(_ copy: SharedCanvasCopy) {
        carryOut(sharedCanvas.open(copy))
    }

    /// Turns the step just taken on the manager (`before` → now) into operations for the server,
    /// or takes it back when the operations cannot say it.
    mutating func shareStep(_ step: String, before: LayoutData) {
        carryOut(sharedCanvas.step(step, before: before, after: manager.saveLayout()))
    }

    /// Takes back this user's last step on the shared canvas (`undo`), or takes again the last one
    /// taken back, whoever changed the canvas since.
    mutating func replayShared(undo: Bool) {
        carryOut(sharedCanvas.replay(undo: undo, focus: manager.focusedPaneID))
    }

    /// What the live stream brought that concerns shared canvases.
    mutating func receiveShared(_ events: [any BusEvent]) {
        carryOut(sharedCanvas.live(events, focus: manager.focusedPaneID))
    }

    /// What the server said of the shared canvas `canvas`.
    mutating func receive(_ news: SharedCanvasNews, canvas: Int64?) {
        carryOut(sharedCanvas.receive(news, canvas: canvas, focus: manager.focusedPaneID))
    }

    /// Says the shared canvas open, if any, is closed here (before another replaces it, or on
    /// quitting), so the others' pickers stop listing this user.
    mutating func closeShared() {
        carryOut(sharedCanvas.close())
    }

    /// Opens the layout `name` of the server this machine has no copy of, when it is one.
    /// - Returns: whether it is.
    mutating func openServerLayout(_ name: String) -> Bool {
        guard let effects = sharedCanvas.openServerLayout(name) else { return false }
        carryOut(effects)
        return true
    }

    /// Whether a command that arranges the canvas may run; a viewer is told why not.
    mutating func mayArrange() -> Bool {
        let refusal = sharedCanvas.refusalToArrange()
        carryOut(refusal)
        return refusal.isEmpty
    }

    /// Carries out what the shared canvas machine asks, in order.
    private mutating func carryOut(_ effects: [SharedCanvasMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .request(let request):
                emit(.shared(request))
            case .keep(let copy):
                emit(.write(.keepShared(copy)))
            case .replaceCanvas:
                unmountAll()
                mode = .normal
            case .show(let focus, let earlier, let keepingWidgetState):
                showShared(focus: focus, settingsFrom: earlier, keepingWidgetState: keepingWidgetState)
            case .announce(let step):
                publish(LayoutChanged(step: step))
            case .announceChange(let change):
                announce(change)
            case .describeReplay(let undo, let operations):
                // Said as what it did, never as another member's change.
                notice = .info("Your \(undo ? "undo" : "redo") " + operations.map(words).joined(separator: ", "))
            case .tell(let said):
                notice = said
            case .leaveArrangeMode:
                mode = .normal
            case .keepHere(let name, let reason):
                keepHere(name, reason: reason)
            }
        }
    }

    /// The server did not store the layout `name`: it is kept on this machine instead, so nothing
    /// is lost.
    private mutating func keepHere(_ name: String, reason: String) {
        let source = manager.layout.name
        manager.rename(to: name)
        if shared != nil, let own = try? CanvasManager(layout: manager.layout) {
            closeShared()
            manager = own
        }
        emit(.write(.save(manager.saveLayout(), continuingHistoryOf: source, announce: false)))
        notice = .error("Could not save \(name) on the server (\(reason)); saved it on this machine instead")
    }

    /// Shows the shared copy as it stands, keeping this user's focus when its pane is still
    /// there; panes whose settings another member changed (since `settingsFrom`) start afresh
    /// with them.
    private mutating func showShared(focus: PaneID?, settingsFrom earlier: LayoutData? = nil, keepingWidgetState: Bool = true) {
        guard let shared else { return }
        syncWidgetValues()
        var layout = shared.replica.shown
        layout.focused = focus.flatMap { layout.pane($0)?.id } ?? layout.panes.first?.id
        // Each person's widget state is their own: a pane keeps the state its widget has here.
        for index in layout.panes.indices where keepingWidgetState {
            if let mine = manager.pane(layout.panes[index].id) { layout.panes[index].state = mine.state }
        }
        guard let next = try? CanvasManager(layout: layout, historyLimit: 1) else { return }
        manager = next
        if let earlier {
            let changed = layout.panes.filter { pane in earlier.pane(pane.id).map { $0.config != pane.config } ?? false }
            for pane in changed { unmount(pane.id) }
        }
        reconcileWidgets()
    }

    /// "alice moved 2 Calendar", for a change another member made.
    private mutating func announce(_ change: CanvasChange) {
        let what = words(change.operation)
        notice = .info("\(change.author) \(what)")
        publish(LayoutChanged(step: "\(change.author) \(what)"))
    }

    /// What an operation did, its pane named by its title: `moved Calendar`.
    private func words(_ operation: CanvasOperation) -> String {
        let pane = { (id: PaneID) in self.manager.pane(id).map(self.title(of:)) ?? "a pane" }
        return switch operation {
        case .add(let added): "added " + pane(added.id)
        case .remove: "removed a pane"
        case .move(let id, _): "moved " + pane(id)
        case .resize(let id, _): "resized " + pane(id)
        case .swap: "swapped two panes"
        case .configure(let id, _): "changed the settings of " + pane(id)
        case .setState(let id, _): "changed " + pane(id)
        }
    }
}
