import CalendarTime
import Foundation
import GRDB
import MicroAppAPI

/// A row of `user`: a name and a bcrypt hash of the password, never the password.
struct UserRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "user"
    var id: Int64?
    var name: String
    var passwordHash: String
    var isAdmin: Bool
    var createdAt: Date

    enum Columns {
        static let name = Column(CodingKeys.name)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    func user(id: Int64) -> BFFUser { BFFUser(id: id, name: name, isAdmin: isAdmin) }
}

/// A row of `todoItem`: one user's todo, `due` kept as `YYYY-MM-DD` text so ranges compare as strings.
struct TodoRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "todoItem"
    var id: Int64?
    var ownerId: Int64
    var title: String
    var notes: String
    var done: Bool
    var due: CalendarDate?
    var createdAt: Date
    var updatedAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let ownerId = Column(CodingKeys.ownerId)
        static let done = Column(CodingKeys.done)
        static let due = Column(CodingKeys.due)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var item: TodoItem {
        TodoItem(id: id ?? 0, title: title, notes: notes, done: done, due: due)
    }

    /// An API item from a row of `id, title, notes, done, due`, read by position: lists skip the
    /// record's Codable decoding (and its dates), which profiling showed costs more than the query.
    static func item(_ row: Row) -> TodoItem {
        TodoItem(id: row[0], title: row[1], notes: row[2], done: row[3], due: row[4])
    }
}

/// A row of `calendarEvent`: one user's event, date-times as UTC text so ranges compare as strings.
struct CalendarEventRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "calendarEvent"
    var id: Int64?
    var ownerId: Int64
    var title: String
    var start: UTCInstant
    var end: UTCInstant
    var allDay: Bool
    var createdAt: Date
    var updatedAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let ownerId = Column(CodingKeys.ownerId)
        static let start = Column(CodingKeys.start)
        static let end = Column(CodingKeys.end)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var event: CalendarEvent {
        CalendarEvent(id: id ?? 0, title: title, start: start, end: end, allDay: allDay)
    }

    /// The columns of an API event, read by position from a `Row` in lists (see `TodoRecord.item`).
    static var eventSelection: [any SQLSelectable] { [Columns.id, Column("title"), Columns.start, Columns.end, Column("allDay")] }

    static func event(_ row: Row) -> CalendarEvent {
        CalendarEvent(id: row[0], title: row[1], start: row[2], end: row[3], allDay: row[4])
    }
}

/// A row of `chatChannel`, shared by all users.
struct ChatChannelRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "chatChannel"
    var id: String
    var name: String
    var createdBy: String?
    var createdAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let createdBy = Column(CodingKeys.createdBy)
    }

    var channel: ChatChannel { ChatChannel(id: id, name: name) }
}

/// A row of `chatMessage`: the author's name as it was when sent, so it outlives the account, and
/// `sentAt` as the API shows it (ISO 8601 UTC with milliseconds).
struct ChatMessageRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "chatMessage"
    var id: Int64?
    var channelId: String
    var author: String
    var text: String
    var sentAt: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let channelId = Column(CodingKeys.channelId)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var message: ChatMessage {
        ChatMessage(id: id ?? 0, channel: channelId, author: author, text: text, sentAt: sentAt)
    }
}
