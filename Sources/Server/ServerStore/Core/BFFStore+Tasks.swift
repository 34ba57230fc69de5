import CalendarItems
import ServerAPI

/// Todo items as iCalendar tasks (`VTODO`): imported, replaced by their UID, and read back with
/// the task each came as, for an export.
extension BFFStore {
    /// Adds each task, or replaces the item of `owner`'s with its UID (as an import again does);
    /// the list's own changes to an item replaced are the imported task's. One transaction; the
    /// quota counts what is added.
    package func importTasks(owner: Int64, tasks: [TaskResource]) async throws -> ImportOutcome {
        var plan: Plan<ImportOutcome> = .done(ImportOutcome())
        // Worked out before the transaction, which holds a connection.
        for (task, text) in tasks.map({ ($0, $0.text) }) {
            let item = task.item
            plan = plan.then { outcome in
                .run("SELECT id FROM todo_items WHERE owner_id = \(owner) AND list_id = 0 AND uid = \(task.uid)") { rows in
                    var next = outcome
                    if let id = try rows.first?.integer(0) {
                        next.replaced += 1
                        return .run("""
                            UPDATE todo_items SET title = \(item.title), notes = \(item.notes), done = \(item.done), due = \(item.due),
                                priority = \(item.priority ?? 0), ical = \(text), updated_at = \(.now) WHERE id = \(id) RETURNING \(todoColumns)
                            """) { [next] rows in
                            guard let row = rows.first else { throw BFFStoreError.unreadableRow("todo_items, just written") }
                            return .record(.todoItemUpdated, owner: owner, data: try TodoItem(row: row), then: .done(next))
                        }
                    }
                    next.added += 1
                    return .run("SELECT COUNT(*) FROM todo_items WHERE owner_id = \(owner)") { [next] rows in
                        try Self.checkQuota(rows, TodoLimits.itemsPerUser, of: "todo items")
                        return .run("""
                            INSERT INTO todo_items (owner_id, title, notes, done, due, uid, ical, priority, created_at, updated_at)
                            VALUES (\(owner), \(item.title), \(item.notes), \(item.done), \(item.due), \(task.uid), \(text), \(item.priority ?? 0),
                                \(.now), \(.now)) RETURNING \(todoColumns)
                            """) { rows in
                            guard let row = rows.first else { throw BFFStoreError.unreadableRow("todo_items, just written") }
                            return .record(.todoItemCreated, owner: owner, data: try TodoItem(row: row), then: .done(next))
                        }
                    }
                }
            }
        }
        return try await runWrite(.lock("todo.owner.\(owner)", next: plan))
    }

    /// A page of `owner`'s items in id order after `after`, each with the task it was imported as
    /// (nil for one made in the list); and whether more follow.
    package func todoTasks(owner: Int64, after: Int64?, limit: Int) async throws -> (items: [(item: TodoItem, task: TaskResource?)], more: Bool) {
        let (rows, more) = try await runRead(Plan.run("""
            SELECT \(todoColumns), ical FROM todo_items WHERE owner_id = \(owner) AND id > \(after ?? 0) ORDER BY id LIMIT \(limit + 1)
            """) { rows in
            .done((Array(try rows.map { (try TodoItem(row: $0), try $0.optionalText(8)) }.prefix(limit)), rows.count > limit))
        }, snapshot: false)
        // Read as iCalendar once the database's connection is free again.
        return (try await offThePool { rows.map { (item: $0.0, task: $0.1.flatMap(TaskResource.init(text:))) } }, more)
    }
}
