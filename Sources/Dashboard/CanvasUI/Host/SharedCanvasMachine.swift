import CanvasCore

/// A canvas shared through a server, as a value: this dashboard's steps become operations the
/// server orders, other members' changes arrive in that order, and what is shown is the server's
/// layout with this copy's unanswered edits on top (`CanvasReplica`). Focus, scroll and widget
/// state stay this user's; undo takes back this user's own steps only.
///
/// Everything about the shared canvas comes in here, whichever way it came — a step taken here,
/// the server's answer to a request (`SharedCanvasNews`), the live stream's changes and
/// reconnects — and goes out as `Effect`s: requests to the server, the copy to keep, and what the
/// host shows and says. The host composes it; tests drive it with no host.
public struct SharedCanvasMachine: Sendable {
    /// The shared canvas open, when the canvas is one.
    public private(set) var copy: SharedCanvasCopy?
    /// Who has each shared canvas open, by canvas, as the server last said (for the layout picker).
    public private(set) var presence: [Int64: [String]] = [:]
    /// The server's layouts this machine has no copy of, by name, as the picker last listed them.
    private var serverOnly: [String: Int64] = [:]

    public enum Effect: Equatable, Sendable {
        /// Ask the server (the dashboard's link to it).
        case request(SharedCanvasRequest)
        /// Keep the copy on this machine as it stands, unanswered edits included.
        case keep(SharedCanvasCopy)
        /// Replace the canvas with the copy: every pane's widget mounted afresh, drags and
        /// arrange mode ended.
        case replaceCanvas
        /// Show the copy as it stands (`replica.shown`), focused on `focus` when its pane is
        /// there. Panes whose settings another member changed since `settingsFrom` start afresh
        /// with them; each keeps its widget's state here unless `keepingWidgetState` is false.
        case show(focus: PaneID?, settingsFrom: LayoutData? = nil, keepingWidgetState: Bool = true)
        /// Tell the canvas's listeners a step was taken (`LayoutChanged`).
        case announce(step: String)
        /// Another member changed the canvas: say who and what (the host names the pane).
        case announceChange(CanvasChange)
        /// This user's own undo (or redo) did `operations`: say what, in the host's words.
        case describeReplay(undo: Bool, [CanvasOperation])
        case tell(Notice)
        /// The user may no longer arrange the canvas: back to normal mode.
        case leaveArrangeMode
        /// The server did not store the layout `name`: keep the canvas on this machine under it.
        case keepHere(name: String, reason: String)
    }

    public init() {}

    // MARK: Opening and closing

    /// Opens `copy` in place of the canvas, and asks the server for its latest state (which also
    /// sends the edits the copy kept from an earlier run).
    public mutating func open(_ copy: SharedCanvasCopy) -> [Effect] {
        var effects = close()
        self.copy = copy
        effects += [.replaceCanvas, .show(focus: nil, keepingWidgetState: false), .announce(step: "load \(copy.name)"),
                    .request(.catchUp(canvas: copy.canvas, session: copy.replica.session))]
        return effects
    }

    /// Says the shared canvas open, if any, is closed here (before another replaces it, or on
    /// quitting), so the others' pickers stop listing this user.
    public mutating func close() -> [Effect] {
        guard let copy else { return [] }
        self.copy = nil
        return [.request(.close(canvas: copy.canvas, session: copy.replica.session))]
    }

    /// Opens the layout `name` of the server this machine has no copy of, when it is one; nil
    /// when it is not.
    public func openServerLayout(_ name: String) -> [Effect]? {
        serverOnly[name].map { [.request(.fetch(canvas: $0))] }
    }

    /// Whether a command that arranges the canvas may run: empty when it may; else what says why
    /// not to a viewer (and asks the server again: the owner may have made them an editor since).
    public func refusalToArrange() -> [Effect] {
        guard let copy, !copy.mayEdit else { return [] }
        return [.tell(.error(copy.readOnlyReason)), .request(.catchUp(canvas: copy.canvas, session: copy.replica.session))]
    }

    // MARK: Steps taken here

    /// Turns the step just taken on the canvas (`before` → `after`) into operations for the
    /// server, or takes it back when the operations cannot say it.
    public mutating func step(_ step: String, before: LayoutData, after: LayoutData) -> [Effect] {
        guard var state = copy else { return [] }
        guard let operations = CanvasOperation.operations(from: before, to: after), !operations.isEmpty else {
            var effects: [Effect] = [.show(focus: before.focused)]
            if after.panes.map(\.frame) != before.panes.map(\.frame) || after.panes.count != before.panes.count {
                effects.append(.tell(.error(after.panes.count > before.panes.count
                    ? "Can't \(step) here: on a shared canvas a new pane needs free room or the focused pane to split; shrink or remove a pane first"
                    : "Can't \(step) on a shared canvas: it changes other panes in a way the others' copies can't follow")))
            }
            return effects
        }
        var focus = after.focused
        let (edits, inverses) = Self.apply(operations, to: &state, renamingFocus: &focus)
        guard !edits.isEmpty else { return [.show(focus: before.focused)] }
        state.undo.append(inverses)
        if state.undo.count > SharedCanvasCopy.undoLimit { state.undo.removeFirst() }
        state.redo = []
        return commit(state, sending: edits, focus: focus, step: step)
    }

    /// Takes back this user's last step on the shared canvas (`undo`), or takes again the last one
    /// taken back, whoever changed the canvas since.
    public mutating func replay(undo: Bool, focus: PaneID?) -> [Effect] {
        let word = undo ? "undo" : "redo"
        guard var state = copy, let last = undo ? state.undo.popLast() : state.redo.popLast() else {
            return [.tell(.info("Nothing to \(word)"))]
        }
        var focus = focus
        let (edits, inverses) = Self.apply(last, to: &state, renamingFocus: &focus)
        guard !edits.isEmpty else {
            copy = state
            return [.tell(.info("Nothing left to \(word) of that step: the panes it changed were changed or removed since"))]
        }
        if undo { state.redo.append(inverses) } else { state.undo.append(inverses) }
        return commit(state, sending: edits, focus: focus, step: word) + [.describeReplay(undo: undo, edits.map(\.operation))]
    }

    // MARK: What the server says

    /// What the live stream brought that concerns shared canvases: who has each open, the open
    /// one's changes, and a reconnect (after which it catches up on what it missed).
    public mutating func live(_ events: [any BusEvent], focus: PaneID?) -> [Effect] {
        for case let said as SharedCanvasPresence in events { presence[said.canvas] = said.present }
        var effects: [Effect] = []
        for event in events {
            guard let state = copy else { break }
            if let changed = event as? SharedCanvasChanged, changed.canvas == state.canvas {
                effects += receive(.changed(changed.change), canvas: changed.canvas, focus: focus)
            } else if event is ServerStreamConnected {
                effects.append(.request(.catchUp(canvas: state.canvas, session: state.replica.session)))
            }
        }
        return effects
    }

    /// What the server answered about the shared canvas `canvas`; news of one no longer open is
    /// dropped. `focus` is the pane focused here.
    public mutating func receive(_ news: SharedCanvasNews, canvas: Int64?, focus: PaneID?) -> [Effect] {
        switch news {
        case .present(let users):
            if let canvas { presence[canvas] = users }
            return []
        case .firstCopy(let first, let stored):
            let opened = open(first)
            return [.keep(first)] + opened + [.tell(.info(stored ? "Saved \(first.name) on the server; `termcanvas layout share \(first.name) USER` shares it"
                                                                   : "Opened \(first.name), \(first.badge)"))]
        case .listed(let layouts):
            serverOnly = Dictionary(layouts.compactMap { layout in layout.sharing.map { (layout.name, $0.canvas) } }, uniquingKeysWith: { first, _ in first })
            return []
        case .notStored(let layout, let reason):
            return [.keepHere(name: layout.name, reason: reason)]
        case .changed, .refused, .caughtUp, .gone:
            guard var state = copy, state.canvas == canvas else { return [] }
            let effects = Self.receive(news, into: &state, focus: focus)
            copy = state
            return effects
        }
    }

    /// The news about the copy open, `state`.
    private static func receive(_ news: SharedCanvasNews, into state: inout SharedCanvasCopy, focus: PaneID?) -> [Effect] {
        switch news {
        case .changed(let change):
            let before = state.replica.shown
            switch state.replica.receive(change) {
            case .known:
                return []
            case .outOfStep:
                return [.request(.catchUp(canvas: state.canvas, session: state.replica.session))]
            case .applied(let renamed):
                var focus = focus
                if let renamed {
                    state.renamePane(renamed.from, to: renamed.to)
                    if focus == renamed.from { focus = renamed.to }
                }
                let own = change.origin.session == state.replica.session
                return [.show(focus: focus, settingsFrom: before), .keep(state)] + (own ? [] : [.announceChange(change)])
            }
        case .refused(let origin, let reason):
            state.replica.refused(origin)
            return [.show(focus: focus), .keep(state), .tell(.error("The server refused your change: \(reason)"))]
        case .caughtUp(let layout, let version, let answered, let role):
            var effects: [Effect] = []
            let (before, name) = (state.replica.shown, state.name)
            state.replica.reset(to: layout, version: version, answeredUpTo: answered)
            // Changes the stream had not brought yet (it reconnects as this answer comes) are in
            // the layout without their authors: said as one, so no change goes unmentioned (what
            // follows, more particular, is said after it).
            if state.replica.shown.panes != before.panes { effects.append(.tell(.info("Caught up: \(name) changed on the server meanwhile"))) }
            if layout.name != name { effects.append(.tell(.info("\(name) is called \(layout.name) now"))) }
            if role != state.role {
                effects.append(.tell(.info("You are \(role == .viewer ? "a viewer" : "an \(role.rawValue)") of \(state.name) now")))
                if !role.mayEdit { effects.append(.leaveArrangeMode) }
            }
            state.role = role
            effects += [.show(focus: focus, settingsFrom: before), .keep(state)]
            if role.mayEdit, !state.replica.pending.isEmpty { effects.append(.request(.send(canvas: state.canvas, state.replica.pending))) }
            return effects
        case .gone(let reason):
            state.role = .viewer
            return [.leaveArrangeMode, .tell(.error("\(state.name): \(reason). It is read-only here now"))]
        case .present, .firstCopy, .listed, .notStored:
            return []
        }
    }

    // MARK: Edits

    /// Applies `operations` as this copy's edits, in order, skipping any that no longer apply.
    /// - Returns: the edits to send, and the operations that take back those applied, in the
    ///   order to apply them.
    private static func apply(_ operations: [CanvasOperation], to state: inout SharedCanvasCopy,
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

    private mutating func commit(_ state: SharedCanvasCopy, sending edits: [CanvasReplica.PendingEdit], focus: PaneID?, step: String) -> [Effect] {
        copy = state
        return [.show(focus: focus), .announce(step: step), .keep(state), .request(.send(canvas: state.canvas, edits))]
    }
}
