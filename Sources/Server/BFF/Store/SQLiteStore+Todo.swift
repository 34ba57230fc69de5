import CalendarTime
import Foundation
import GRDB
import MicroAppAPI

extension SQLiteStore {
    /// Creates an item owned by `owner`; the fields must already be valid.
    public func createTodo(owner: Int64, title: String, notes: String, due: CalendarDate?) async throws -> TodoItem {
        try keyedWrite { db in
            let now = Date()
            var record = TodoRecord(
                id: nil, ownerId: owner, title: title, notes: notes, done: false, due: due, createdAt: now, updatedAt: now
            )
            try record.insert(db)
            try self.record(.todoItemCreated, owner: owner, data: record.item, in: db)
            return record.item
        }
    }

    /// The item with this id if `owner` owns it; nil otherwise, so ids of others' items do not leak.
    public func todo(id: Int64, owner: Int64) async throws -> TodoItem? {
        try read { db in try ownedTodo(db, id: id, owner: owner)?.item }
    }

    /// One page of `owner`'s items in id order, and whether more follow.
    ///
    /// The hottest query of the API, so it is plain SQL on a cached prepared statement (one per
    /// combination of filters) read through a cursor: the query builder's SQL generation and row
    /// copies cost more than SQLite's own work. One SELECT is atomic in SQLite, so it runs without
    /// the explicit read transaction a `read` would wrap it in.
    public func todos(owner: Int64, query: TodoQuery) async throws -> (items: [TodoItem], more: Bool) {
        var sql = "SELECT id, title, notes, done, due FROM todoItem WHERE ownerId = ?"
        var arguments: StatementArguments = [owner]
        if let done = query.done { sql += " AND done = ?"; arguments += [done] }
        if let from = query.from { sql += " AND due >= ?"; arguments += [from] }
        if let to = query.to { sql += " AND due <= ?"; arguments += [to] }
        if let after = query.after { sql += " AND id > ?"; arguments += [after] }
        sql += " ORDER BY id LIMIT ?"
        arguments += [query.limit + 1]
        return try unsafeRead { db in
            let rows = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: arguments)
            var items: [TodoItem] = []
            items.reserveCapacity(query.limit)
            while let row = try rows.next() {
                guard items.count < query.limit else { return (items, true) }
                items.append(TodoRecord.item(row))
            }
            return (items, false)
        }
    }

    /// Applies a valid change to `owner`'s item; nil when there is no such item of theirs.
    public func updateTodo(id: Int64, owner: Int64, change: TodoChange) async throws -> TodoItem? {
        try keyedWrite { db in
            guard var record = try ownedTodo(db, id: id, owner: owner) else { return nil }
            if let title = change.title { record.title = title }
            if let notes = change.notes { record.notes = notes }
            if let done = change.done { record.done = done }
            if let due = change.due { record.due = due }
            record.updatedAt = Date()
            try record.update(db)
            try self.record(.todoItemUpdated, owner: owner, data: record.item, in: db)
            return record.item
        }
    }

    /// Deletes `owner`'s item; returns whether there was one.
    public func deleteTodo(id: Int64, owner: Int64) async throws -> Bool {
        try keyedWrite { db in
            let deleted = try TodoRecord
                .filter(TodoRecord.Columns.id == id && TodoRecord.Columns.ownerId == owner)
                .deleteAll(db) > 0
            if deleted { try record(.todoItemDeleted, owner: owner, data: DeletedEntity(id: id), in: db) }
            return deleted
        }
    }

    private func ownedTodo(_ db: Database, id: Int64, owner: Int64) throws -> TodoRecord? {
        try TodoRecord.filter(TodoRecord.Columns.id == id && TodoRecord.Columns.ownerId == owner).fetchOne(db)
    }
}
