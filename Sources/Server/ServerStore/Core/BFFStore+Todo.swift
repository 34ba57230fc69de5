import CalendarTime
import ServerAPI

/// Todo items: each is its owner's (another user's id reads as none), lists page by id, and a
/// change records its live event in its transaction (whose commit drops its owner's cached list
/// pages, see `TodoPageCache`). An item of a task list synced with a CalDAV server is marked
/// `pending` when it changes here and its list made due for a sync; a deletion is remembered
/// for the server (`caldav_deletions`).
extension BFFStore {
    /// Creates an item owned by `owner` in `list` (nil: their default list); the fields must
    /// already be valid. `uid` names it on a CalDAV server when the list is synced with one
    /// (without one, a UID is made of the item's id).
    /// - Throws: `BFFStoreError.quotaReached` past `TodoLimits.itemsPerUser`;
    ///   `BFFStoreError.noSuchList`.
    package func createTodo(owner: Int64, title: String, notes: String, due: CalendarDate?, priority: Int? = nil, list: Int64? = nil,
                            uid: String? = nil) async throws -> TodoItem {
        let chosen: Plan<Int64> = list.map { list in
            list == 0 ? .done(0) : .run("""
                SELECT id FROM calendars WHERE id = \(list) AND owner_id = \(owner) AND task_list = \(true)
                """) { rows in
                guard !rows.isEmpty else { throw BFFStoreError.noSuchList }
                return .done(list)
            }
        } ?? .run("""
            SELECT u.default_list_id FROM users u WHERE u.id = \(owner)
                AND (u.default_list_id = 0 OR EXISTS (SELECT 1 FROM calendars c WHERE c.id = u.default_list_id))
            """) { rows in .done(try rows.first?.integer(0) ?? 0) }
        // The owner's lock: instances creating at once cannot both take the last place.
        return try await keyedWrite(.lock("todo.owner.\(owner)", next: chosen.then { list in
            .run("SELECT COUNT(*) FROM todo_items WHERE owner_id = \(owner)") { rows in
                try Self.checkQuota(rows, TodoLimits.itemsPerUser, of: "todo items")
                let synced = list != 0
                return .run("""
                    INSERT INTO todo_items (owner_id, title, notes, done, due, priority, list_id, uid, pending, created_at, updated_at)
                    VALUES (\(owner), \(title), \(notes), \(false), \(due), \(priority ?? 0), \(list), \(synced ? uid : nil), \(synced), \(.now),
                        \(.now)) RETURNING \(todoColumns)
                    """) { rows in
                    guard let row = rows.first else { throw BFFStoreError.unreadableRow("todo_items, just written") }
                    let item = try TodoItem(row: row)
                    let soon: Plan<Void> = synced ? Self.syncSoon(list) : .done(())
                    return soon.then { _ in .record(.todoItemCreated, owner: owner, data: item, then: .done(item)) }
                }
            }
        }))
    }

    /// The item with this id if `owner` owns it.
    package func todo(id: Int64, owner: Int64) async throws -> TodoItem? {
        try await runRead(Plan.run("SELECT \(todoColumns) FROM todo_items WHERE id = \(id) AND owner_id = \(owner)") { rows in
            .done(try rows.first.map(TodoItem.init(row:)))
        }, snapshot: false)
    }

    /// One page of `owner`'s items in id order, and whether more follow. The hottest query of the
    /// API: one SELECT (cached as a prepared statement by SQLite, one per combination of filters).
    package func todos(owner: Int64, query: TodoQuery) async throws -> (items: [TodoItem], more: Bool) {
        var statement: SQLStatement = "SELECT \(todoColumns) FROM todo_items WHERE owner_id = \(owner)"
        if let done = query.done { statement += " AND done = \(done)" }
        if let from = query.from { statement += " AND due >= \(from)" }
        if let to = query.to { statement += " AND due <= \(to)" }
        if let after = query.after { statement += " AND id > \(after)" }
        statement += " ORDER BY id LIMIT \(query.limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            let items = try rows.map(TodoItem.init(row:))
            return .done((Array(items.prefix(query.limit)), items.count > query.limit))
        }, snapshot: false)
    }

    /// Applies a valid patch to `owner`'s item; nil when there is no such item of theirs.
    package func updateTodo(id: Int64, owner: Int64, applying patch: TodoPatch) async throws -> TodoItem? {
        try await keyedWrite(Plan.run("""
            SELECT \(todoColumns) FROM todo_items WHERE id = \(id) AND owner_id = \(owner)\(.forUpdate)
            """) { rows -> Plan<TodoItem?> in
            guard let item = try rows.first.map(TodoItem.init(row:))?.patched(patch) else { return .done(nil) }
            let synced = item.list != nil
            return .run("""
                UPDATE todo_items SET title = \(item.title), notes = \(item.notes), done = \(item.done), due = \(item.due),
                    priority = \(item.priority ?? 0), pending = \(synced), updated_at = \(.now) WHERE id = \(id)
                """) { [item] _ in
                let soon: Plan<Void> = item.list.map(Self.syncSoon) ?? .done(())
                return soon.then { _ in .record(.todoItemUpdated, owner: owner, data: item, then: .done(item)) }
            }
        })
    }

    /// Deletes `owner`'s item; returns whether there was one. One of a synced list is remembered
    /// to be deleted on its server at the next sync.
    package func deleteTodo(id: Int64, owner: Int64) async throws -> Bool {
        try await keyedWrite(Plan.run("""
            DELETE FROM todo_items WHERE id = \(id) AND owner_id = \(owner) RETURNING list_id, remote_href, remote_etag
            """) { rows in
            guard let row = rows.first else { return .done(false) }
            let (list, href, etag) = (try row.integer(0), try row.optionalText(1), try row.optionalText(2))
            let remembered: Plan<Void> = list != 0 && href != nil ? .run("""
                INSERT INTO caldav_deletions (calendar_id, href, etag) VALUES (\(list), \(href), \(etag)) ON CONFLICT DO NOTHING
                """) { _ in Self.syncSoon(list) } : .done(())
            return remembered.then { _ in .record(.todoItemDeleted, owner: owner, data: DeletedEntity(id: id), then: .done(true)) }
        })
    }
}

/// The columns of an API item, in the order `TodoItem.init(row:)` reads them.
let todoColumns: SQLStatement = "id, title, notes, done, due, uid, priority, list_id"

extension TodoItem {
    /// An API item from a row of `todoColumns`; a due date that is not `YYYY-MM-DD` reads as none.
    init(row: SQLRow) throws {
        self.init(id: try row.integer(0), title: try row.text(1), notes: try row.text(2), done: try row.bool(3),
                  due: try row.optionalText(4).flatMap(CalendarDate.init(iso:)))
        uid = try row.optionalText(5)
        priority = try row.optionalInteger(6).flatMap { (1...9).contains($0) ? Int($0) : nil }
        list = try row.integer(7) == 0 ? nil : try row.integer(7)
    }
}
