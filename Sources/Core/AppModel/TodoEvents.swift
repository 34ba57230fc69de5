import CanvasCore
import ServerAPI

// The todo micro-app's canvas events, published by the sync engine (from the cache, from the
// user's own commands and from the server's live stream) for every widget to see.

/// Every todo item, replacing what a listener had: from the cache at start, then from the server.
public struct TodoItemsLoaded: BusEvent {
    public static let name: CanvasCore.EventName = "todo.items.loaded"
    public let items: [TodoItem]
    public let origin: DataOrigin

    public init(items: [TodoItem], origin: DataOrigin) {
        self.items = items
        self.origin = origin
    }

    public var summary: String { "\(items.count) item\(items.count == 1 ? "" : "s") from the \(origin)" }
}

/// A new item, made here (with a local id until it is synced) or by another client.
public struct TodoItemCreated: BusEvent {
    public static let name: CanvasCore.EventName = "todo.item.created"
    public let item: TodoItem

    public init(item: TodoItem) { self.item = item }

    public var summary: String { "#\(item.id) \(item.title)" }
}

/// An item changed (other than being ticked done).
public struct TodoItemUpdated: BusEvent {
    public static let name: CanvasCore.EventName = "todo.item.updated"
    public let item: TodoItem

    public init(item: TodoItem) { self.item = item }

    public var summary: String { "#\(item.id) \(item.title)" }
}

/// An item was ticked done.
public struct TodoItemCompleted: BusEvent {
    public static let name: CanvasCore.EventName = "todo.item.completed"
    public let item: TodoItem

    public init(item: TodoItem) { self.item = item }

    public var summary: String { "#\(item.id) \(item.title)" }
}

public struct TodoItemDeleted: BusEvent {
    public static let name: CanvasCore.EventName = "todo.item.deleted"
    public let id: Int64

    public init(id: Int64) { self.id = id }

    public var summary: String { "#\(id)" }
}

/// An item made offline reached the server: `localID` is now `item.id`.
public struct TodoItemSynced: BusEvent {
    public static let name: CanvasCore.EventName = "todo.item.synced"
    public let localID: Int64
    public let item: TodoItem

    public init(localID: Int64, item: TodoItem) {
        self.localID = localID
        self.item = item
    }

    public var summary: String { "#\(localID) → #\(item.id)" }
}

/// Where loaded data came from.
public enum DataOrigin: String, Sendable, CustomStringConvertible {
    /// The local cache: what the server last said, plus writes still waiting to be sent.
    case cache
    case server

    public var description: String { rawValue }
}
