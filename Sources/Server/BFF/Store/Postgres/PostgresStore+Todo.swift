import CalendarTime
import Foundation
import MicroAppAPI
import PostgresNIO

extension PostgresStore {
    public func createTodo(owner: Int64, title: String, notes: String, due: CalendarDate?) async throws -> TodoItem {
        let item = try await keyedTransaction { connection in
            let id = try await connection.rows("""
                INSERT INTO todo_items (owner_id, title, notes, due) VALUES (\(owner), \(title), \(notes), \(due?.iso)) RETURNING id
                """, as: Int64.self, logger: logger)[0]
            let item = TodoItem(id: id, title: title, notes: notes, done: false, due: due)
            try await record(.todoItemCreated, owner: owner, data: item, on: connection)
            return item
        }
        todoPages.invalidate(owner: owner)
        return item
    }

    public func todo(id: Int64, owner: Int64) async throws -> TodoItem? {
        try await rows("SELECT id, title, notes, done, due FROM todo_items WHERE id = \(id) AND owner_id = \(owner)",
                       as: TodoColumns.self).first.map(Self.todoItem)
    }

    public func todos(owner: Int64, query: TodoQuery) async throws -> (items: [TodoItem], more: Bool) {
        var sql = SQL("SELECT id, title, notes, done, due FROM todo_items WHERE owner_id = ", owner)
        if let done = query.done { sql.append(" AND done = ", done) }
        if let from = query.from { sql.append(" AND due >= ", from.iso) }
        if let to = query.to { sql.append(" AND due <= ", to.iso) }
        if let after = query.after { sql.append(" AND id > ", after) }
        sql.append(" ORDER BY id LIMIT ", Int64(query.limit + 1))
        let found = try await rows(sql.query, as: TodoColumns.self)
        return (found.prefix(query.limit).map(Self.todoItem), found.count > query.limit)
    }

    public func updateTodo(id: Int64, owner: Int64, change: TodoChange) async throws -> TodoItem? {
        let item = try await keyedTransaction { connection -> TodoItem? in
            guard let current = try await connection.rows("""
                SELECT id, title, notes, done, due FROM todo_items WHERE id = \(id) AND owner_id = \(owner) FOR UPDATE
                """, as: TodoColumns.self, logger: logger).first.map(Self.todoItem) else { return nil }
            var item = current
            if let title = change.title { item.title = title }
            if let notes = change.notes { item.notes = notes }
            if let done = change.done { item.done = done }
            if let due = change.due { item.due = due }
            try await connection.run("""
                UPDATE todo_items SET title = \(item.title), notes = \(item.notes), done = \(item.done), due = \(item.due?.iso),
                    updated_at = now() WHERE id = \(id)
                """, logger: logger)
            try await record(.todoItemUpdated, owner: owner, data: item, on: connection)
            return item
        }
        if item != nil { todoPages.invalidate(owner: owner) }
        return item
    }

    public func deleteTodo(id: Int64, owner: Int64) async throws -> Bool {
        let deleted = try await keyedTransaction { connection in
            let deleted = try await connection.run("DELETE FROM todo_items WHERE id = \(id) AND owner_id = \(owner) RETURNING 1",
                                                   logger: logger) > 0
            if deleted { try await record(.todoItemDeleted, owner: owner, data: DeletedEntity(id: id), on: connection) }
            return deleted
        }
        if deleted { todoPages.invalidate(owner: owner) }
        return deleted
    }

    typealias TodoColumns = (Int64, String, String, Bool, String?)

    static func todoItem(_ columns: TodoColumns) -> TodoItem {
        TodoItem(id: columns.0, title: columns.1, notes: columns.2, done: columns.3, due: columns.4.flatMap(CalendarDate.init(iso:)))
    }
}
