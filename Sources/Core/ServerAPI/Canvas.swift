import CanvasCore

/// The body of `POST /api/canvas`: a layout to share under a name of its owner's.
public struct NewCanvas: Codable, Sendable, Equatable {
    public var name: String
    public var layout: LayoutData

    public init(name: String, layout: LayoutData) {
        self.name = name
        self.layout = layout
    }
}

/// A canvas in a list: who owns it, the caller's role and its latest version.
public struct CanvasSummary: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var owner: String
    public var role: CanvasRole
    public var version: Int
    /// How many panes it has, and when it last changed (seconds since 1970); nil from a server
    /// before these were listed.
    public var panes: Int?
    public var updatedAt: Double?

    public init(id: Int64, name: String, owner: String, role: CanvasRole, version: Int, panes: Int? = nil, updatedAt: Double? = nil) {
        self.id = id
        self.name = name
        self.owner = owner
        self.role = role
        self.version = version
        self.panes = panes
        self.updatedAt = updatedAt
    }
}

/// `GET /api/canvas/{id}`: the canvas as its summary says, its layout at `version`, and how far
/// the server answered the edits of the session asked about (`?session=`), so a dashboard coming
/// back knows which to send again.
public struct CanvasSnapshot: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var owner: String
    public var role: CanvasRole
    public var version: Int
    public var layout: LayoutData
    public var answered: Int

    public init(canvas: CanvasSummary, layout: LayoutData, answered: Int) {
        id = canvas.id
        name = canvas.name
        owner = canvas.owner
        role = canvas.role
        version = canvas.version
        self.layout = layout
        self.answered = answered
    }

    /// Its summary, but for when it changed, which a snapshot does not say.
    public var summary: CanvasSummary {
        CanvasSummary(id: id, name: name, owner: owner, role: role, version: version, panes: layout.panes.count)
    }
}

/// The body of `POST /api/canvas/{id}/changes`: one edit of a dashboard's session, numbered 1, 2,
/// 3 … within it, so an edit sent again is answered once.
public struct CanvasEdit: Codable, Sendable, Equatable {
    public var session: String
    public var sequence: Int
    public var operation: CanvasOperation

    public init(session: String, sequence: Int, operation: CanvasOperation) {
        self.session = session
        self.sequence = sequence
        self.operation = operation
    }
}

/// How the server answered an edit: `ordered` with the change every member gets, `refused` with
/// why (it no longer applied when its turn came; nothing changed), or `repeated` (answered before).
public struct CanvasEditAnswer: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable { case ordered, refused, repeated }

    public var outcome: Outcome
    public var change: CanvasChange?
    public var reason: String?

    public init(outcome: Outcome, change: CanvasChange? = nil, reason: String? = nil) {
        self.outcome = outcome
        self.change = change
        self.reason = reason
    }
}

/// A member of a canvas, by user name.
public struct CanvasMember: Codable, Sendable, Hashable {
    public var user: String
    public var role: CanvasRole

    public init(user: String, role: CanvasRole) {
        self.user = user
        self.role = role
    }
}

/// The body of `PUT /api/canvas/{id}/members/{user}`.
public struct CanvasMemberRole: Codable, Sendable, Equatable {
    public var role: CanvasRole

    public init(role: CanvasRole) {
        self.role = role
    }
}

/// `GET /api/canvas/{id}/versions/{version}`: the canvas's layout as it was at a version.
public struct CanvasVersion: Codable, Sendable, Equatable {
    public var version: Int
    public var layout: LayoutData

    public init(version: Int, layout: LayoutData) {
        self.version = version
        self.layout = layout
    }
}

/// The body of `PATCH /api/canvas/{id}`: the canvas's new name.
public struct CanvasRename: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// Who has a canvas open (`GET|PUT|DELETE /api/canvas/{id}/presence…`), as the live event
/// `canvas.presence.changed` also carries it to every member: the users, sorted, each once.
public struct CanvasPresence: Codable, Sendable, Equatable {
    public var canvas: Int64
    public var present: [String]

    public init(canvas: Int64, present: [String]) {
        self.canvas = canvas
        self.present = present
    }
}

/// A change as the live event `canvas.change.applied` carries it to every member.
public struct CanvasChangeEvent: Codable, Sendable, Equatable {
    public var canvas: Int64
    public var change: CanvasChange

    public init(canvas: Int64, change: CanvasChange) {
        self.canvas = canvas
        self.change = change
    }
}

/// The limits the server enforces on shared canvases.
public enum CanvasLimits {
    /// Canvases one user may own.
    public static let canvasesPerUser = 50
    /// Members of one canvas besides its owner.
    public static let membersPerCanvas = 50
    /// A canvas's name: 1 to 64 characters, no control characters.
    public static let nameMaxLength = 64
    /// A session id: 1 to 64 letters, digits, `-` and `_`.
    public static let sessionMaxLength = 64
    /// Panes on one canvas.
    public static let panesPerCanvas = 64
    /// The keys of a pane's settings or state together, and their values, in bytes.
    public static let valuesMaxBytes = 16 << 10
    /// The settings and state of all of a canvas's panes together, in bytes as stored and sent
    /// (JSON): what a canvas's `GET` carries besides its arrangement, at most. An edit past it is
    /// refused.
    public static let bytesMax = 512 << 10
    /// Changes kept per canvas for members catching up (`GET …/changes?after=`) and for reading
    /// earlier versions (`GET …/versions/{version}`), at most, and the bytes of their operations
    /// (`historyMaxBytes`); older ones are folded into the layout kept before them, and a member
    /// further behind starts again from the canvas itself.
    public static let changesKept = 1000
    public static let historyMaxBytes = 512 << 10
    /// Sessions remembered per canvas and user for answering a repeated edit once: a session is
    /// its user's, so no one else's sessions can make the server forget one.
    public static let sessionsKept = 200
    /// Dashboards of one user said to have a canvas open at once (the newest are kept).
    public static let presenceSessionsPerUser = 16
    /// The most changes one page gives.
    public static let maxChangePageSize = 500
    /// How long a dashboard counts as having a canvas open after it last said so (it says so on
    /// opening and on every reconnect, and says goodbye on closing; one that ended without a
    /// goodbye drops off after this). Twelve hours, in seconds.
    public static let presenceLasts: Double = 12 * 3600

    /// Whether `name` may name a canvas: 1 to 64 characters, none a control character.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && isLine(name)
    }

    /// At most `nameMaxLength` characters, none a control character (a layout's or an app's name).
    static func isLine(_ text: String) -> Bool {
        TextLength.admits(text, characters: 0...nameMaxLength) && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether `session` may name a session.
    public static func isSession(_ session: String) -> Bool {
        let bytes = session.utf8
        return !bytes.isEmpty && bytes.count <= sessionMaxLength && bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// Why `layout` may not be shared as it is, or nil: the arrangement rules, at most
    /// `panesPerCanvas` panes, names of at most 64 characters without control characters, and
    /// each pane's settings and state without NUL, within `valuesMaxBytes` each.
    public static func problem(with layout: LayoutData) -> String? {
        do throws(CanvasError) {
            try layout.validate()
        } catch {
            return error.description
        }
        if layout.panes.count > panesPerCanvas { return "a canvas holds at most \(panesPerCanvas) panes" }
        if !isLine(layout.name) { return "the layout's name: at most \(nameMaxLength) characters, no control characters" }
        for pane in layout.panes {
            if let problem = problem(with: .add(pane)) { return "pane \(pane.id.rawValue): \(problem)" }
        }
        return nil
    }

    /// Why `operation` is refused before it is ordered, or nil: an app's name or settings and
    /// state that break the rules above.
    public static func problem(with operation: CanvasOperation) -> String? {
        switch operation {
        case .add(let pane):
            guard !pane.app.rawValue.isEmpty, isLine(pane.app.rawValue) else {
                return "an app's name is 1 to \(nameMaxLength) characters, no control characters"
            }
            return problem(with: pane.config) ?? problem(with: pane.state)
        case .configure(_, let values), .setState(_, let values):
            return problem(with: values)
        case .remove, .move, .resize, .swap:
            return nil
        }
    }

    private static func problem(with values: WidgetValues) -> String? {
        if values.contains(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }) { return "settings and state may not contain NUL" }
        let bytes = values.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        return bytes <= valuesMaxBytes ? nil : "settings and state hold at most \(valuesMaxBytes) bytes each"
    }
}
