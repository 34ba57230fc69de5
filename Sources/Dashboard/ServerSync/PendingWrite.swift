import AppModel
import CanvasCore
import ServerAPI

/// A write waiting in the outbox, in the order the user made it. Records made offline are named
/// by their local (negative) id until the server gives them theirs; `replacing(_:with:)` rewrites
/// the later writes then.
enum PendingWrite: Codable, Sendable, Equatable {
    case createTodo(localID: Int64, NewTodo)
    case updateTodo(id: Int64, TodoPatch)
    case deleteTodo(id: Int64)
    case createEvent(localID: Int64, NewCalendarEvent)
    /// Of a repeating event, `of` names the instances (absent in rows from before it: all).
    case updateEvent(id: Int64, CalendarEventPatch, of: CalendarInstances? = nil)
    case deleteEvent(id: Int64, of: CalendarInstances? = nil)
    case createChannel(name: String)
    /// `author` and `sentAt` are the local copy's, shown until the server's arrives.
    case postMessage(localID: Int64, channel: String, text: String, author: String, sentAt: String)

    var app: ServerApp {
        switch self {
        case .createTodo, .updateTodo, .deleteTodo: .todo
        case .createEvent, .updateEvent, .deleteEvent: .calendar
        case .createChannel, .postMessage: .chat
        }
    }

    /// The record this write is about, when it has an id.
    var recordID: Int64? {
        switch self {
        case .createTodo(let id, _), .updateTodo(let id, _), .deleteTodo(let id),
             .createEvent(let id, _), .updateEvent(let id, _, _), .deleteEvent(let id, _),
             .postMessage(let id, _, _, _, _):
            id
        case .createChannel: nil
        }
    }

    /// An update or a delete: a write about a record that must exist.
    var changesExistingRecord: Bool {
        switch self {
        case .updateTodo, .deleteTodo, .updateEvent, .deleteEvent: true
        default: false
        }
    }

    /// A change or deletion of some of a repeating event's instances.
    var changesInstances: Bool {
        switch self {
        case .updateEvent(_, _, .some), .deleteEvent(_, .some): true
        default: false
        }
    }

    var deletesRecord: Bool {
        switch self {
        case .deleteTodo, .deleteEvent: true
        default: false
        }
    }

    var isChannelCreation: Bool {
        if case .createChannel = self { return true }
        return false
    }

    /// The same write about `serverID` where it was about `localID`.
    func replacing(_ localID: Int64, with serverID: Int64) -> PendingWrite {
        switch self {
        case .updateTodo(localID, let patch): .updateTodo(id: serverID, patch)
        case .deleteTodo(localID): .deleteTodo(id: serverID)
        case .updateEvent(localID, let patch, let instances): .updateEvent(id: serverID, patch, of: instances)
        case .deleteEvent(localID, let instances): .deleteEvent(id: serverID, of: instances)
        default: self
        }
    }
}

/// One row of the outbox.
struct OutboxEntry: Sendable, Equatable {
    let seq: Int64
    let idempotencyKey: String
    let write: PendingWrite
}
