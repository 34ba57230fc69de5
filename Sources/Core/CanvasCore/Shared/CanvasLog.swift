/// An operation as the server ordered it: the canvas's version after it, who made it, and which
/// of that member's edits it was (so the member can match it to what it sent).
public struct CanvasChange: Hashable, Sendable, Codable {
    /// 1 for the first change after the canvas was created; each change adds one.
    public var version: Int
    /// The user who made the change, for "moved by alice" on the other screens.
    public var author: String
    /// The dashboard the change came from, and its number there.
    public var origin: EditOrigin
    public var operation: CanvasOperation

    public init(version: Int, author: String, origin: EditOrigin, operation: CanvasOperation) {
        self.version = version
        self.author = author
        self.origin = origin
        self.operation = operation
    }
}

/// Which edit of which open copy of a canvas an operation is: a dashboard numbers its edits
/// 1, 2, 3 … under a session id of its own.
public struct EditOrigin: Hashable, Sendable, Codable {
    public var session: String
    public var sequence: Int

    public init(session: String, sequence: Int) {
        self.session = session
        self.sequence = sequence
    }
}

/// A shared canvas as its server keeps it: the layout at the latest version and the order of the
/// changes. Operations are applied in the order they arrive, each to the latest layout whatever
/// version its author saw (it names panes, not positions in a list); one that no longer applies
/// (its pane was removed, its place taken meanwhile) is refused and changes nothing. That order is
/// what every copy converges on (`CanvasReplica`).
public struct CanvasLog: Hashable, Sendable {
    public private(set) var layout: LayoutData
    public private(set) var version: Int
    /// Every pane id ever used on this canvas is below this, so a new pane never takes the id of
    /// one removed earlier (a late edit naming the removed pane must not hit the new one).
    public private(set) var nextPaneID: Int
    /// The last edit answered (ordered or refused) per session, so an edit sent again after a
    /// reconnect is not applied twice.
    public private(set) var answered: [String: Int]

    /// How the server answers one edit.
    public enum Answer: Hashable, Sendable {
        /// The next change, to send to every member.
        case ordered(CanvasChange)
        /// It no longer applies (its pane was removed, its place taken): nothing changed.
        case refused(EditOrigin, CanvasError)
        /// Answered before (sent again after a reconnect): nothing to do.
        case repeated
    }

    /// A canvas at `version` with `layout` (its focus dropped: a shared canvas has none).
    /// At most this many panes: an add past it is refused.
    public let paneLimit: Int

    public init(layout: LayoutData, version: Int = 0, nextPaneID: Int? = nil, answered: [String: Int] = [:], paneLimit: Int = .max) {
        var shared = layout
        shared.focused = nil
        self.layout = shared
        self.version = version
        self.nextPaneID = max(nextPaneID ?? 1, (layout.panes.map(\.id.rawValue).max() ?? 0) + 1)
        self.answered = answered
        self.paneLimit = paneLimit
    }

    /// Orders `operation` as the next change, or refuses it. An added pane gets its id here (the
    /// canvas's next one), whatever its author called it meanwhile.
    public mutating func submit(_ operation: CanvasOperation, author: String, origin: EditOrigin) -> Answer {
        guard origin.sequence > answered[origin.session, default: 0] else { return .repeated }
        answered[origin.session] = origin.sequence
        do throws(CanvasError) {
            var ordered = operation
            if case .add(let pane) = operation {
                guard nextPaneID < Int(Int32.max) else { throw .invalidPaneID(nextPaneID) }
                guard layout.panes.count < paneLimit else { throw .tooManyPanes(paneLimit) }
                ordered = operation.renaming(pane.id, to: PaneID(nextPaneID))
            }
            layout = try ordered.applied(to: layout)
            if case .add = ordered { nextPaneID += 1 }
            version += 1
            return .ordered(CanvasChange(version: version, author: author, origin: origin, operation: ordered))
        } catch {
            return .refused(origin, error)
        }
    }
}
