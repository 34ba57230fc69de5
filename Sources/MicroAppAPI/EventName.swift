/// Names of live events, `source.entity.action`.
public enum EventName: String, Codable, Sendable, CaseIterable {
    case todoItemCreated = "todo.item.created"
    case todoItemUpdated = "todo.item.updated"
    case todoItemDeleted = "todo.item.deleted"
}
