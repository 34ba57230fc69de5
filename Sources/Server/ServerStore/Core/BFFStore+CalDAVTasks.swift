import CalendarItems
import CalendarTime
import ServerAPI

/// A task list synced with a CalDAV server: its tasks are todo items of its `list_id`, each a
/// `VTODO` whose text as the server last had it is `ical`; what the list changes of a task
/// (title, notes, done, due, priority) is written over that text when it is sent
/// (`TaskResource.text`), so what the dashboard does not show is kept.
extension BFFStore {
    /// The list's tasks changed here, as the texts to send, and the places of those deleted here.
    func tasksToSend(from list: Int64, now: UTCInstant) async throws -> (resources: [SyncedResource], deleted: [(href: String, etag: String?)]) {
        let (pending, deleted) = try await runRead(Plan.run("""
            SELECT \(todoColumns), remote_href, remote_etag, ical FROM todo_items WHERE list_id = \(list) AND pending = \(true)
            """) { rows in
            let pending = try rows.map { row in
                (item: try TodoItem(row: row), href: try row.optionalText(8), etag: try row.optionalText(9), stored: try row.optionalText(10))
            }
            return Self.deletions(of: list).then { deleted in .done((pending, deleted)) }
        }, snapshot: true)
        let resources = try await offThePool {
            pending.map { task in
                SyncedResource(id: task.item.id, uid: TaskResource.uid(of: task.item), href: task.href, etag: task.etag,
                               text: TaskResource.text(of: task.item, stored: task.stored.flatMap(TaskResource.init(text:)), stamp: now),
                               item: task.item)
            }
        }
        return (resources, deleted)
    }

    /// The task was sent as `text`: its place, its text as the server now has it, and no longer
    /// pending unless the list changed it meanwhile (its fields are no longer `item`'s).
    func markTaskSent(_ id: Int64, item: TodoItem, text: String, href: String, etag: String?) async throws {
        try await runWrite(Plan.run("""
            UPDATE todo_items SET remote_href = \(href), remote_etag = \(etag), ical = \(text), uid = \(TaskResource.uid(of: item)),
                pending = CASE WHEN title = \(item.title) AND notes = \(item.notes) AND done = \(item.done)
                    AND COALESCE(due, '') = \(item.due?.iso ?? "") AND priority = \(item.priority ?? 0) THEN \(false) ELSE pending END
                WHERE id = \(id)
            """) { _ in .done(()) })
    }

    /// A task changed on both sides: the server's (`theirs`) replaces it, ours becomes a copy.
    func keepBothTasks(_ resource: SyncedResource, target: SyncTarget, theirs: String, href: String, etag: String?, copyUID: String)
        async throws -> Bool {
        guard let (server, copy) = try await offThePool({ () -> (TaskResource, TaskResource)? in
            guard let server = TaskResource(text: theirs), let mine = TaskResource(text: resource.text) else { return nil }
            return (server, mine.copy(uid: copyUID, titleSuffix: Self.copySuffix))
        }) else { return false }
        let (id, owner) = (resource.id, target.owner)
        try await runWrite(.lock("todo.owner.\(owner)", next: Self.updateTask(id, to: server, href: href, etag: etag).then { _ in
            Self.insertTask(copy, owner: owner, list: target.id, href: nil, etag: nil)
        }))
        return true
    }

    /// The changes of a task list a sync pulled, within the user's quota of items; whether there
    /// were any. A task changed here and not yet sent is left as it is.
    static func keepPulledTasks(_ changed: [(href: String, etag: String?, task: TaskResource)], removed: [String],
                                of target: SyncTarget) -> Plan<Bool> {
        let (list, owner) = (target.id, target.owner)
        return .lock("todo.owner.\(owner)", next: .run("SELECT id, remote_href, pending, uid FROM todo_items WHERE list_id = \(list)") { rows in
            var byHref: [String: (id: Int64, pending: Bool)] = [:]
            var byUID: [String: (id: Int64, pending: Bool)] = [:]
            for row in rows.map({ $0 }) {
                let known = (id: try row.integer(0), pending: try row.bool(2))
                if let href = try row.optionalText(1) { byHref[href] = known }
                if let uid = try row.optionalText(3) { byUID[uid] = known }
            }
            let deleted = removed.compactMap { href in byHref[href].flatMap { $0.pending ? nil : $0.id } }
            var updated: [(id: Int64, href: String, etag: String?, task: TaskResource)] = []
            var added: [(href: String, etag: String?, task: TaskResource)] = []
            for change in changed {
                if let known = byHref[change.href] ?? byUID[change.task.uid] {
                    if !known.pending { updated.append((known.id, change.href, change.etag, change.task)) }
                } else {
                    added.append(change)
                }
            }
            let (changedTasks, newTasks) = (updated, added)
            return .run("SELECT COUNT(*) FROM todo_items WHERE owner_id = \(owner)") { count in
                guard (try count.first?.integer(0) ?? 0) + Int64(newTasks.count - deleted.count) <= Int64(TodoLimits.itemsPerUser) else {
                    throw BFFStoreError.quotaReached(what: "todo items", limit: TodoLimits.itemsPerUser)
                }
                return Plan.forEach(deleted) { id in .run("DELETE FROM todo_items WHERE id = \(id)") { _ in .done(()) } }
                    .then { _ in .forEach(changedTasks) { change in updateTask(change.id, to: change.task, href: change.href, etag: change.etag) } }
                    .then { _ in
                        .forEach(newTasks) { change in insertTask(change.task, owner: owner, list: list, href: change.href, etag: change.etag) }
                    }
                    .then { _ in .done(!deleted.isEmpty || !changedTasks.isEmpty || !newTasks.isEmpty) }
            }
        })
    }

    /// The item becomes `task` as the server has it (at `href`, `etag`), no longer pending.
    private static func updateTask(_ id: Int64, to task: TaskResource, href: String, etag: String?) -> Plan<Void> {
        let item = task.item
        return .run("""
            UPDATE todo_items SET title = \(item.title), notes = \(item.notes), done = \(item.done), due = \(item.due),
                priority = \(item.priority ?? 0), uid = \(task.uid), ical = \(task.text), remote_href = \(href), remote_etag = \(etag),
                pending = \(false), updated_at = \(.now) WHERE id = \(id)
            """) { _ in .done(()) }
    }

    /// A new item of `list`: a task from the server (at `href`), or, without one, a copy made
    /// here and still to be sent.
    private static func insertTask(_ task: TaskResource, owner: Int64, list: Int64, href: String?, etag: String?) -> Plan<Void> {
        let item = task.item
        return .run("""
            INSERT INTO todo_items (owner_id, list_id, title, notes, done, due, priority, uid, ical, remote_href, remote_etag, pending,
                created_at, updated_at)
            VALUES (\(owner), \(list), \(item.title), \(item.notes), \(item.done), \(item.due), \(item.priority ?? 0), \(task.uid), \(task.text),
                \(href), \(etag), \(href == nil), \(.now), \(.now))
            """) { _ in .done(()) }
    }
}
