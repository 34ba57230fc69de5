/// One dashboard's copy of a shared canvas: the server's layout as far as its changes arrived
/// (`confirmed`), this copy's own edits the server has not ordered yet (`pending`), and what the
/// screen shows: the pending edits applied again on top of the confirmed layout after every change
/// from the server (a rebase). An edit the server refuses is dropped; one that no longer applies
/// after a rebase stays pending but is not shown, and the server's answer settles it. So once
/// every edit is answered, every copy shows the server's layout: the server's order decides.
///
/// A pane this copy adds carries an id of its own (counting down from `Int32.max`, a range the
/// server never reaches) until the server numbers it; the copy then renames it in its pending
/// edits (`renamed` tells the screen).
///
/// A copy is `Codable`, pending edits and all, so a dashboard keeps it on disk: edits made
/// offline survive a restart and are sent, under the same session and numbers, when the server
/// is back.
public struct CanvasReplica: Hashable, Sendable, Codable {
    /// A local edit not answered yet.
    public struct PendingEdit: Hashable, Sendable, Codable {
        public var origin: EditOrigin
        public var operation: CanvasOperation
    }

    /// What `receive` did with a change.
    public enum Receipt: Hashable, Sendable {
        /// Applied; when it was this copy's own add, the pane's id changed from `renamed.from`.
        case applied(renamed: (from: PaneID, to: PaneID)?)
        /// Not the next version, or it does not apply to the confirmed layout: this copy missed
        /// something and must be reset from the server (`reset`).
        case outOfStep(expected: Int)
        /// This copy has that version already (it came both as the answer to its own edit and
        /// on the live stream): nothing changes.
        case known

        public static func == (lhs: Receipt, rhs: Receipt) -> Bool {
            switch (lhs, rhs) {
            case (.applied(let a), .applied(let b)): a?.from == b?.from && a?.to == b?.to
            case (.outOfStep(let a), .outOfStep(let b)): a == b
            case (.known, .known): true
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .applied(let renamed):
                hasher.combine(0)
                hasher.combine(renamed?.from)
                hasher.combine(renamed?.to)
            case .outOfStep(let expected):
                hasher.combine(1)
                hasher.combine(expected)
            case .known:
                hasher.combine(2)
            }
        }
    }

    public let session: String
    public private(set) var confirmed: LayoutData
    public private(set) var version: Int
    public private(set) var pending: [PendingEdit] = []
    public private(set) var shown: LayoutData
    private var sequence = 0

    public init(session: String, layout: LayoutData, version: Int) {
        self.session = session
        var shared = layout
        shared.focused = nil
        confirmed = shared
        shown = shared
        self.version = version
    }

    /// Applies a local edit to what is shown.
    /// - Returns: the edit to send to the server.
    /// - Throws: when the edit does not apply to what is shown (nothing changes, nothing is sent).
    public mutating func edit(_ operation: CanvasOperation) throws(CanvasError) -> PendingEdit {
        var local = operation
        if case .add(let pane) = operation {
            let taken = Set(shown.panes.map(\.id) + pending.flatMap(\.operation.panes))
            var id = Int(Int32.max) - sequence
            while taken.contains(PaneID(id)) { id -= 1 }
            local = operation.renaming(pane.id, to: PaneID(id))
        }
        shown = try local.applied(to: shown)
        sequence += 1
        let edit = PendingEdit(origin: EditOrigin(session: session, sequence: sequence), operation: local)
        pending.append(edit)
        return edit
    }

    /// The server's next change (its own edits come back this way too).
    public mutating func receive(_ change: CanvasChange) -> Receipt {
        guard change.version > version else { return .known }
        guard change.version == version + 1, let next = try? change.operation.applied(to: confirmed) else {
            return .outOfStep(expected: version + 1)
        }
        confirmed = next
        version = change.version
        var renamed: (from: PaneID, to: PaneID)?
        if change.origin.session == session, let index = pending.firstIndex(where: { $0.origin == change.origin }) {
            let mine = pending.remove(at: index)
            if case .add(let local) = mine.operation, case .add(let ordered) = change.operation, local.id != ordered.id {
                renamed = (local.id, ordered.id)
                pending = pending.map { PendingEdit(origin: $0.origin, operation: $0.operation.renaming(local.id, to: ordered.id)) }
            }
        }
        rebase()
        return .applied(renamed: renamed)
    }

    /// The server refused the edit `origin` (it no longer applied when its turn came).
    public mutating func refused(_ origin: EditOrigin) {
        pending.removeAll { $0.origin == origin }
        rebase()
    }

    /// Starts again from the server's layout at `version` (after `receive` found this copy out of
    /// step, or on reconnecting). `answeredUpTo` is the server's last answered edit of this
    /// session (`CanvasLog.answered`): edits up to it are in that layout already, or were
    /// refused; the others stay pending, shown on top of it, to be sent again.
    public mutating func reset(to layout: LayoutData, version: Int, answeredUpTo: Int) {
        var shared = layout
        shared.focused = nil
        confirmed = shared
        self.version = version
        pending.removeAll { $0.origin.sequence <= answeredUpTo }
        rebase()
    }

    /// The canvas is called `name` now (its owner renamed it).
    public mutating func rename(to name: String) {
        confirmed.name = name
        shown.name = name
    }

    private mutating func rebase() {
        shown = pending.reduce(confirmed) { layout, edit in (try? edit.operation.applied(to: layout)) ?? layout }
    }
}
