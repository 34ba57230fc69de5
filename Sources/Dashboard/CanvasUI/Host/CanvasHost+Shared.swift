import CanvasCore

/// A canvas shared through a server: this dashboard's steps become operations the server orders,
/// other members' changes arrive in that order, and what is shown is the server's layout with
/// this copy's unanswered edits on top (`CanvasReplica`). Focus, scroll and widget state stay
/// this user's; undo takes back this user's own steps only.
extension CanvasHost {
    /// Shows the shared canvas `copy` in place of the canvas, and asks the server for its latest
    /// state (which also sends the edits the copy kept from an earlier run).
    public func open(_ copy: SharedCanvasCopy) -> [HostEffect] {
        openShared(copy)
        return takeEmitted()
    }

    func openShared(_ copy: SharedCanvasCopy) {
        drag = nil
        closeShared()
        for id in mounted.keys { unmount(id) }
        shared = copy
        mode = .normal
        showShared(focus: nil, keepingWidgetState: false)
        bus.publish(LayoutChanged(step: "load \(copy.name)"))
        emit(.shared(.catchUp(canvas: copy.canvas, session: copy.replica.session)))
    }

    /// Turns the step just taken on the manager (`before` → now) into operations for the server,
    /// or takes it back when the operations cannot say it.
    func shareStep(_ step: String, before: LayoutData) {
        guard var state = shared else { return }
        let after = manager.saveLayout()
        guard let operations = CanvasOperation.operations(from: before, to: after), !operations.isEmpty else {
            showShared(focus: before.focused)
            if after.panes.map(\.frame) != before.panes.map(\.frame) || after.panes.count != before.panes.count {
                notice = .error(after.panes.count > before.panes.count
                    ? "Can't \(step) here: on a shared canvas a new pane needs free room, it does not split another's; shrink or remove a pane first"
                    : "Can't \(step) on a shared canvas: it changes other panes in a way the others' copies can't follow")
            }
            return
        }
        var focus = after.focused
        let (edits, inverses) = apply(operations, to: &state, renamingFocus: &focus)
        guard !edits.isEmpty else { return showShared(focus: before.focused) }
        state.undo.append(inverses)
        if state.undo.count > SharedCanvasCopy.undoLimit { state.undo.removeFirst() }
        state.redo = []
        commit(state, sending: edits, focus: focus, step: step)
    }

    /// Takes back this user's last step on the shared canvas (`undo`), or takes again the last one
    /// taken back, whoever changed the canvas since.
    func replayShared(undo: Bool) {
        let word = undo ? "undo" : "redo"
        guard var state = shared, let last = undo ? state.undo.popLast() : state.redo.popLast() else {
            notice = .info("Nothing to \(word)")
            return
        }
        var focus = manager.focusedPaneID
        let (edits, inverses) = apply(last, to: &state, renamingFocus: &focus)
        guard !edits.isEmpty else {
            shared = state
            notice = .info("Nothing left to \(word) of that step: the panes it changed were changed or removed since")
            return
        }
        if undo { state.redo.append(inverses) } else { state.undo.append(inverses) }
        commit(state, sending: edits, focus: focus, step: word)
    }

    /// What the live stream brought that concerns the shared canvas open: its changes, and a
    /// reconnect (after which it catches up on what it missed).
    func receiveShared(_ events: [any BusEvent]) {
        for case let presence as SharedCanvasPresence in events { canvasPresence[presence.canvas] = presence.present }
        guard let state = shared else { return }
        for event in events {
            if let changed = event as? SharedCanvasChanged, changed.canvas == state.canvas {
                receive(.changed(changed.change), canvas: changed.canvas)
            } else if event is ServerStreamConnected {
                emit(.shared(.catchUp(canvas: state.canvas, session: state.replica.session)))
            }
        }
    }

    /// What the server said of the shared canvas `canvas`; news of one no longer open is dropped.
    func receive(_ news: SharedCanvasNews, canvas: Int64?) {
        switch news {
        case .present(let users):
            if let canvas { canvasPresence[canvas] = users }
        case .firstCopy(let copy, let stored):
            emit(.write(.keepShared(copy)))
            openShared(copy)
            notice = .info(stored ? "Saved \(copy.name) on the server; `termcanvas layout share \(copy.name) USER` shares it"
                                  : "Opened \(copy.name), \(shared?.badge ?? "shared")")
            return
        case .listed(let layouts):
            serverOnly = Dictionary(layouts.compactMap { layout in layout.sharing.map { (layout.name, $0.canvas) } }, uniquingKeysWith: { first, _ in first })
            return
        case .notStored(let layout, let reason):
            // Kept here instead, so nothing is lost.
            let source = manager.layout.name
            manager.rename(to: layout.name)
            if shared != nil, let own = try? CanvasManager(layout: manager.layout) {
                closeShared()
                manager = own
            }
            emit(.write(.save(manager.saveLayout(), continuingHistoryOf: source, announce: false)))
            notice = .error("Could not save \(layout.name) on the server (\(reason)); saved it on this machine instead")
            return
        default:
            break
        }
        guard var state = shared, state.canvas == canvas else { return }
        switch news {
        case .changed(let change):
            let before = state.replica.shown
            switch state.replica.receive(change) {
            case .known:
                return
            case .outOfStep:
                emit(.shared(.catchUp(canvas: state.canvas, session: state.replica.session)))
                return
            case .applied(let renamed):
                var focus = manager.focusedPaneID
                if let renamed {
                    state.renamePane(renamed.from, to: renamed.to)
                    if focus == renamed.from { focus = renamed.to }
                }
                shared = state
                showShared(focus: focus, settingsFrom: before)
                emit(.write(.keepShared(state)))
                if change.origin.session != state.replica.session { announce(change) }
            }
        case .refused(let origin, let reason):
            state.replica.refused(origin)
            shared = state
            showShared(focus: manager.focusedPaneID)
            emit(.write(.keepShared(state)))
            notice = .error("The server refused your change: \(reason)")
        case .caughtUp(let layout, let version, let answered, let role):
            let before = state.replica.shown
            if layout.name != state.name { notice = .info("\(state.name) is called \(layout.name) now") }
            state.replica.reset(to: layout, version: version, answeredUpTo: answered)
            if role != state.role {
                notice = .info("You are \(role == .viewer ? "a viewer" : "an \(role.rawValue)") of \(state.name) now")
                if !role.mayEdit { mode = .normal }
            }
            state.role = role
            shared = state
            showShared(focus: manager.focusedPaneID, settingsFrom: before)
            emit(.write(.keepShared(state)))
            if role.mayEdit, !state.replica.pending.isEmpty { emit(.shared(.send(canvas: state.canvas, state.replica.pending))) }
        case .gone(let reason):
            state.role = .viewer
            shared = state
            mode = .normal
            notice = .error("\(state.name): \(reason). It is read-only here now")
        case .present, .firstCopy, .notStored, .listed:
            break
        }
    }

    /// Says the shared canvas open, if any, is closed here (before another replaces it, or on
    /// quitting), so the others' pickers stop listing this user.
    func closeShared() {
        guard let shared else { return }
        emit(.shared(.close(canvas: shared.canvas, session: shared.replica.session)))
        self.shared = nil
    }

    /// Opens the layout `name` of the server this machine has no copy of, when it is one.
    /// - Returns: whether it is.
    func openServerLayout(_ name: String) -> Bool {
        guard let canvas = serverOnly[name] else { return false }
        emit(.shared(.fetch(canvas: canvas)))
        return true
    }

    /// Whether a command that arranges the canvas may run; a viewer is told why not.
    func mayArrange() -> Bool {
        guard let shared, !shared.mayEdit else { return true }
        notice = .error(shared.readOnlyReason)
        // The owner may have made this user an editor since: the answer says so.
        emit(.shared(.catchUp(canvas: shared.canvas, session: shared.replica.session)))
        return false
    }

    /// Applies `operations` as this copy's edits, in order, skipping any that no longer apply.
    /// - Returns: the edits to send, and the operations that take back those applied, in the
    ///   order to apply them.
    private func apply(_ operations: [CanvasOperation], to state: inout SharedCanvasCopy,
                       renamingFocus focus: inout PaneID?) -> (edits: [CanvasReplica.PendingEdit], inverses: [CanvasOperation]) {
        var edits: [CanvasReplica.PendingEdit] = []
        var inverses: [CanvasOperation] = []
        for operation in operations {
            let before = state.replica.shown
            guard let edit = try? state.replica.edit(operation) else { continue }
            edits.append(edit)
            // The copy numbers a pane it adds itself, until the server does.
            if case .add(let asked) = operation, case .add(let added) = edit.operation, focus == asked.id { focus = added.id }
            if let inverse = edit.operation.inverse(before: before) { inverses.insert(inverse, at: 0) }
        }
        return (edits, inverses)
    }

    private func commit(_ state: SharedCanvasCopy, sending edits: [CanvasReplica.PendingEdit], focus: PaneID?, step: String) {
        shared = state
        showShared(focus: focus)
        bus.publish(LayoutChanged(step: step))
        emit(.write(.keepShared(state)))
        emit(.shared(.send(canvas: state.canvas, edits)))
    }

    /// Shows the shared copy as it stands, keeping this user's focus when its pane is still
    /// there; panes whose settings another member changed (since `settingsFrom`) start afresh
    /// with them.
    func showShared(focus: PaneID?, settingsFrom earlier: LayoutData? = nil, keepingWidgetState: Bool = true) {
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
    private func announce(_ change: CanvasChange) {
        let what: String
        switch change.operation {
        case .add(let pane): what = "added " + (manager.pane(pane.id).map(title(of:)) ?? "a pane")
        case .remove: what = "removed a pane"
        case .move(let id, _): what = "moved " + (manager.pane(id).map(title(of:)) ?? "a pane")
        case .resize(let id, _): what = "resized " + (manager.pane(id).map(title(of:)) ?? "a pane")
        case .swap: what = "swapped two panes"
        case .configure(let id, _): what = "changed the settings of " + (manager.pane(id).map(title(of:)) ?? "a pane")
        case .setState(let id, _): what = "changed " + (manager.pane(id).map(title(of:)) ?? "a pane")
        }
        notice = .info("\(change.author) \(what)")
        bus.publish(LayoutChanged(step: "\(change.author) \(what)"))
    }
}
