import CanvasCore
import ServerAPI

/// What a micro-app widget asks of its backend. Widgets never call the network or the disk: they
/// return commands as requests (`WidgetEffects`), the canvas hands them to the sync engine, and
/// the answers come back as bus events (see `TodoEvents`, `CalendarEvents`, `ChatEvents`,
/// `SyncStatusChanged`).
///
/// Writes are applied to the local cache at once and sent to the BFF from an ordered outbox, so
/// they work offline; each carries an idempotency key, so a retried write is applied once.
public enum AppCommand: Sendable, Equatable, WidgetRequest {
    case todo(TodoCommand)
    case calendar(CalendarCommand)
    case chat(ChatCommand)

    /// The micro-app the command is for.
    public var app: ServerApp {
        switch self {
        case .todo: .todo
        case .calendar: .calendar
        case .chat: .chat
        }
    }
}

public enum TodoCommand: Sendable, Equatable {
    /// Publish every item (`todo.items.loaded`): from the cache now, from the server when it answers.
    case load
    case create(NewTodo)
    case update(id: Int64, TodoPatch)
    case delete(id: Int64)
}

public enum CalendarCommand: Sendable, Equatable {
    /// Publish the events overlapping these days (`calendar.events.loaded`), both inclusive.
    case load(DayRange)
    case create(NewCalendarEvent)
    /// A change of the event; of a repeating one, of the instances `of` names (nil: all).
    case update(id: Int64, CalendarEventPatch, of: CalendarInstances? = nil)
    case delete(id: Int64, of: CalendarInstances? = nil)
}

public enum ChatCommand: Sendable, Equatable {
    /// Publish the channel list (`chat.channels.loaded`).
    case loadChannels
    /// Publish the newest messages of a channel (`chat.messages.loaded`).
    case open(channel: String)
    /// Publish the page of messages older than `before` (an id), newest first.
    case older(channel: String, before: Int64)
    case post(channel: String, text: String)
    case createChannel(name: String)
}

/// An inclusive range of calendar days as ISO 8601 dates (`2026-11-01`…`2026-11-30`).
public struct DayRange: Sendable, Hashable, Codable {
    public var first: String
    public var last: String

    public init(first: String, last: String) {
        self.first = first
        self.last = last
    }
}
