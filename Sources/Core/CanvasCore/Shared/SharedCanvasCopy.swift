/// A shared canvas as a dashboard keeps it: which canvas of its server, whose, this user's role
/// there, the copy with the edits not yet answered, and this user's undo, which takes back their
/// own steps and no one else's. Opening it needs no network; the server brings it up to date once
/// it answers; undo survives a restart as the local canvas's does.
public struct SharedCanvasCopy: Hashable, Sendable, Codable {
    public var canvas: Int64
    public var owner: String
    public var role: CanvasRole
    public var replica: CanvasReplica
    /// Each undoable step as the operations that take it back, in the order to apply them; the
    /// last step last. At most `undoLimit`.
    public var undo: [[CanvasOperation]] = []
    /// Steps taken back, the same way, to take again.
    public var redo: [[CanvasOperation]] = []

    /// How many steps undo keeps.
    public static let undoLimit = 100

    public init(canvas: Int64, owner: String, role: CanvasRole, replica: CanvasReplica) {
        self.canvas = canvas
        self.owner = owner
        self.role = role
        self.replica = replica
    }

    public var name: String { replica.confirmed.name }

    /// Pane `old` is called `new` now (the server numbered a pane this copy added).
    public mutating func renamePane(_ old: PaneID, to new: PaneID) {
        undo = undo.map { $0.map { $0.renaming(old, to: new) } }
        redo = redo.map { $0.map { $0.renaming(old, to: new) } }
    }

    private enum CodingKeys: String, CodingKey { case canvas, owner, role, replica, undo, redo }

    /// A copy kept without an undo (before it had one) opens with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        canvas = try container.decode(Int64.self, forKey: .canvas)
        owner = try container.decode(String.self, forKey: .owner)
        role = try container.decode(CanvasRole.self, forKey: .role)
        replica = try container.decode(CanvasReplica.self, forKey: .replica)
        undo = try container.decodeIfPresent([[CanvasOperation]].self, forKey: .undo) ?? []
        redo = try container.decodeIfPresent([[CanvasOperation]].self, forKey: .redo) ?? []
    }
}

/// What the server said of the shared canvas a dashboard has open, for its canvas host.
public enum SharedCanvasNews: Sendable, Equatable {
    /// A change in the server's order: another member's, or this copy's own coming back.
    case changed(CanvasChange)
    /// The server refused this copy's edit: it no longer applied when its turn came.
    case refused(EditOrigin, reason: String)
    /// The canvas as the server has it now, after a reconnect or a gap: its layout at `version`,
    /// this session's last answered edit, and the user's role (which the owner may have changed).
    case caughtUp(layout: LayoutData, version: Int, answered: Int, role: CanvasRole)
    /// The server no longer lets this user see the canvas (unshared, or deleted).
    case gone(String)
    /// Who has the canvas open now.
    case present([String])
    /// A first copy of a canvas, to keep and open: one just stored on the server (`store`,
    /// `stored`), or one this machine had no copy of (`fetch`).
    case firstCopy(SharedCanvasCopy, stored: Bool)
    /// The layouts on the server, for the layout picker: each with its canvas, owner, role and
    /// who has it open.
    case listed([LayoutSummary])
    /// A layout the server did not store, and why (the host keeps it on this machine instead).
    case notStored(LayoutData, reason: String)
}

/// What a dashboard's canvas host asks of its link to the server about the shared canvas open.
public enum SharedCanvasRequest: Sendable, Equatable {
    /// Send these edits of `canvas`, in this order, after any sent before.
    case send(canvas: Int64, [CanvasReplica.PendingEdit])
    /// Read `canvas` as the server has it, with how far it answered `session` (`caughtUp`),
    /// and say that this session has it open (`present`).
    case catchUp(canvas: Int64, session: String)
    /// Say that this session closed `canvas` (`present` to the others).
    case close(canvas: Int64, session: String)
    /// List the layouts on the server with who has each open (`listed`), for the layout picker.
    case list
    /// Read a first copy of `canvas` (`firstCopy`), to open it.
    case fetch(canvas: Int64)
    /// Store this layout on the server as a new canvas of the user's, under its name (`stored`,
    /// or `notStored`).
    case store(LayoutData)
}

/// Who has a shared canvas open changed, as the server's live stream told every member.
public struct SharedCanvasPresence: BusEvent, Hashable {
    public static let name: EventName = "canvas.shared.presence"
    public let canvas: Int64
    public let present: [String]

    public init(canvas: Int64, present: [String]) {
        self.canvas = canvas
        self.present = present
    }

    public var summary: String { "canvas \(canvas) open by \(present.joined(separator: ", "))" }
}

/// A change to a shared canvas, as the server's live stream brought it to every member.
public struct SharedCanvasChanged: BusEvent, Hashable {
    public static let name: EventName = "canvas.shared.changed"
    public let canvas: Int64
    public let change: CanvasChange

    public init(canvas: Int64, change: CanvasChange) {
        self.canvas = canvas
        self.change = change
    }

    public var summary: String { "canvas \(canvas) version \(change.version) by \(change.author)" }
}

/// The server's live stream connected, or connected again: what a shared canvas open may have
/// missed meanwhile is read again.
public struct ServerStreamConnected: BusEvent, Hashable {
    public static let name: EventName = "canvas.server.connected"

    public init() {}

    public var summary: String { "the server's live stream is connected" }
}
