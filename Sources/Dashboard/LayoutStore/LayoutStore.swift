import CanvasCore
import FoundationEssentials
import SQLiteDatabase
import PlainText

/// Named layouts, their panes with widget settings and state, and a bounded history of every
/// arrangement step, in one SQLite database.
///
/// The database runs in WAL mode with a busy timeout, so two running dashboards can share it;
/// every write is one transaction, so a process killed mid-save leaves the old or the new
/// layout, never a mix.
public struct LayoutStore: Sendable {
    /// How many steps back each layout's history reaches.
    public static let historyLimit = 500

    let writer: DatabaseQueue
    /// The database file, or nil in memory.
    public let path: String?

    /// Wraps an open database and brings its schema up to date.
    /// - Throws: `LayoutStoreError.newerVersion` when the schema is from a newer TermCanvas.
    public init(_ writer: DatabaseQueue, path: String? = nil) throws {
        self.writer = writer
        self.path = path
        // Reading first: an up-to-date database (every start but the first) is not written to.
        // A read racing another program that creates the same file can fail; the write path below
        // then settles it under the write lock.
        let current = try? writer.read { db in
            (try Self.migrations.hasBeenSuperseded(db), try Self.migrations.hasCompletedMigrations(db))
        }
        if current?.0 == true { throw LayoutStoreError.newerVersion(path: path ?? ":memory:") }
        guard current?.1 != true else { return }
        try writer.write { db in
            if try Self.migrations.hasBeenSuperseded(db) { throw LayoutStoreError.newerVersion(path: path ?? ":memory:") }
        }
        // Another program may be migrating the same new file at the same moment, making an attempt
        // fail ("table already exists") once it has committed a step this one also tried. That is
        // fine once the schema is complete; until then, go on from the steps it committed (with
        // several migrations, it may have done the first and not yet the second).
        for attempt in 1...Self.migrationAttempts {
            do {
                try Self.migrations.migrate(writer)
                return
            } catch {
                if try writer.read({ try Self.migrations.hasCompletedMigrations($0) }) { return }
                if attempt == Self.migrationAttempts { throw error }
            }
        }
    }

    /// Each failed attempt means the other program committed a step: more than the steps there are.
    private static let migrationAttempts = 5

    /// An in-memory store, for tests and `render` without a data directory.
    public static func inMemory() throws -> LayoutStore {
        try LayoutStore(DatabaseQueue.inMemory())
    }

    // MARK: Layouts

    /// Every stored layout, by name.
    public func summaries() throws -> [LayoutSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT layout.name, layout.updatedAt, COUNT(pane.paneId) AS paneCount
                FROM layout LEFT JOIN pane ON pane.layoutId = layout.id
                GROUP BY layout.id ORDER BY layout.name COLLATE NOCASE
                """).map { row in
                try LayoutSummary(name: row.decode(atIndex: 0), paneCount: row.decode(Int.self, atIndex: 2),
                                  updatedAt: row.decode(Double.self, atIndex: 1), isPreset: false)
            }
        }
    }

    /// A layout with its undo history, or nil when there is none by that name.
    public func load(named name: String) throws -> StoredLayout? {
        guard let layout = try layout(named: name), let history = try undoHistory(named: name) else { return nil }
        return StoredLayout(layout: layout, history: history)
    }

    /// A layout without its history: all that start-up needs before the first frame.
    public func layout(named name: String) throws -> LayoutData? {
        try read { db in
            guard let record = try LayoutRecord.named(name, in: db) else { return nil }
            return try Self.layout(of: record, in: db)
        }
    }

    /// The undo history of a layout. A long history of a big layout takes a while to decode
    /// (hundreds of snapshots), so the dashboard loads it after the first frame.
    public func undoHistory(named name: String) throws -> UndoHistory<LayoutData>? {
        try read { db in
            guard let record = try LayoutRecord.named(name, in: db) else { return nil }
            let steps = try HistoryRecord.all(of: record.id, in: db)
            let decode = { (step: HistoryRecord) in try? Snapshot.decode(step.snapshot) }
            let past = steps.filter { $0.position < record.historyPosition }.compactMap(decode)
            let future = steps.filter { $0.position > record.historyPosition }.compactMap(decode)
            return UndoHistory(past: past, future: future, limit: Self.historyLimit)
        }
    }

    /// Saves a layout's arrangement and widget state under its name, creating it if needed.
    public func save(_ layout: LayoutData) throws {
        try Self.validate(layout)
        try write { db in _ = try Self.upsert(layout, in: db) }
    }

    /// Saves a layout under a new name with the history of the layout it was arranged in, so
    /// that "save as" keeps undo. Replaces whatever was saved under the new name.
    public func save(_ layout: LayoutData, continuingHistoryOf source: String) throws {
        // Under its own name it is a plain save: deleting first would lose the very history to keep.
        guard source != layout.name else { return try save(layout) }
        try Self.validate(layout)
        try write { db in
            try db.execute(sql: "DELETE FROM layout WHERE name = ?", arguments: [layout.name])
            var record = try Self.upsert(layout, in: db)
            guard let original = try LayoutRecord.named(source, in: db) else { return }
            try db.execute(sql: "DELETE FROM history WHERE layoutId = ?", arguments: [record.id])
            try db.execute(sql: """
                INSERT INTO history (layoutId, position, step, snapshot, createdAt)
                SELECT ?, position, step, snapshot, createdAt FROM history WHERE layoutId = ?
                """, arguments: [record.id, original.id])
            record.historyPosition = original.historyPosition
            try record.update(in: db)
        }
    }

    /// Saves a layout as the result of one arrangement step, appending it to the history.
    /// Steps that had been undone are dropped; the oldest steps beyond the limit are forgotten.
    public func recordStep(_ step: String, layout: LayoutData) throws {
        try Self.validate(layout)
        try write { db in
            var record = try Self.upsert(layout, in: db)
            let position = record.historyPosition + 1
            try db.execute(sql: "DELETE FROM history WHERE layoutId = ? AND position >= ?", arguments: [record.id, position])
            try HistoryRecord.insert(layoutId: record.id, position: position, step: step, snapshot: try Snapshot.encode(layout),
                                     at: Date(), in: db)
            try db.execute(sql: "DELETE FROM history WHERE layoutId = ? AND position < ?",
                           arguments: [record.id, position - Self.historyLimit])
            record.historyPosition = position
            try record.update(in: db)
        }
    }

    /// Saves a layout after undo or redo: the history stays, only where it stands moves.
    public func recordUndo(layout: LayoutData) throws { try moveInHistory(layout, backwards: true) }
    public func recordRedo(layout: LayoutData) throws { try moveInHistory(layout, backwards: false) }

    public func delete(named name: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM layout WHERE name = ?", arguments: [name])
            guard db.changesCount > 0 else { throw LayoutStoreError.notFound(name: name) }
        }
    }

    public func rename(_ name: String, to newName: String) throws {
        try Self.validate(name: newName)
        try write { db in
            guard var record = try LayoutRecord.named(name, in: db) else { throw LayoutStoreError.notFound(name: name) }
            let taken = try LayoutRecord.named(newName, in: db) != nil
            guard newName == name || !taken else { throw LayoutStoreError.nameTaken(name: newName) }
            record.name = newName
            try record.update(in: db)
        }
    }

    // MARK: History

    /// The steps of a layout's history, oldest first.
    public func history(named name: String) throws -> [HistoryEntry] {
        try read { db in
            guard let record = try LayoutRecord.named(name, in: db) else { throw LayoutStoreError.notFound(name: name) }
            return try HistoryRecord.all(of: record.id, in: db)
                .map { HistoryEntry(position: $0.position, step: $0.step, time: $0.createdAt,
                                    isCurrent: $0.position == record.historyPosition) }
        }
    }

    /// Brings back the arrangement of an earlier step as a new step, so the revert itself can be undone.
    /// Widget settings and state stay as they are now, as with undo.
    @discardableResult
    public func revert(named name: String, toStep position: Int) throws -> LayoutData {
        guard let current = try load(named: name)?.layout else { throw LayoutStoreError.notFound(name: name) }
        let snapshot = try read { db -> String? in
            try String.fetchOne(db, sql: """
                SELECT history.snapshot FROM history JOIN layout ON layout.id = history.layoutId
                WHERE layout.name = ? AND history.position = ?
                """, arguments: [name, position])
        }
        guard let snapshot, var reverted = try? Snapshot.decode(snapshot) else {
            throw LayoutStoreError.noSuchStep(name: name, position: position)
        }
        reverted.name = name
        for index in reverted.panes.indices {
            if let live = current.pane(reverted.panes[index].id) {
                reverted.panes[index].config = live.config
                reverted.panes[index].state = live.state
            }
        }
        try recordStep("revert to step \(position)", layout: reverted)
        return reverted
    }

    // MARK: Preferences

    public func preference(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM preference WHERE key = ?", arguments: [key]) }
    }

    public func setPreference(_ key: String, to value: String) throws {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    // MARK: Internals

    private func moveInHistory(_ layout: LayoutData, backwards: Bool) throws {
        try Self.validate(layout)
        try write { db in
            var record = try Self.upsert(layout, in: db)
            let target = try Int.fetchOne(db, sql: backwards
                ? "SELECT MAX(position) FROM history WHERE layoutId = ? AND position < ?"
                : "SELECT MIN(position) FROM history WHERE layoutId = ? AND position > ?",
                arguments: [record.id, record.historyPosition])
            guard let target else { return }
            record.historyPosition = target
            try record.update(in: db)
        }
    }

    /// Writes the layout row and its panes; a new layout starts its history with itself.
    private static func upsert(_ layout: LayoutData, in db: Database) throws -> LayoutRecord {
        let now = Date()
        var record: LayoutRecord
        if var existing = try LayoutRecord.named(layout.name, in: db) {
            existing.columns = layout.grid.columns
            existing.rows = layout.grid.rows
            existing.minWidth = layout.grid.minimumPaneSize.width
            existing.minHeight = layout.grid.minimumPaneSize.height
            existing.focused = layout.focused?.rawValue
            existing.updatedAt = now
            try existing.update(in: db)
            record = existing
        } else {
            record = try LayoutRecord.insert(name: layout.name, grid: layout.grid, focused: layout.focused?.rawValue, at: now, in: db)
            try HistoryRecord.insert(layoutId: record.id, position: 0, step: "created", snapshot: try Snapshot.encode(layout), at: now,
                                     in: db)
        }
        try db.execute(sql: "DELETE FROM pane WHERE layoutId = ?", arguments: [record.id])
        for (position, pane) in layout.panes.enumerated() {
            try PaneRecord(layoutId: record.id, paneId: pane.id.rawValue, position: position, app: pane.app.rawValue,
                           x: pane.frame.x, y: pane.frame.y, width: pane.frame.width, height: pane.frame.height,
                           config: try Snapshot.encode(pane.config), state: try Snapshot.encode(pane.state)).insert(in: db)
        }
        return record
    }

    private static func layout(of record: LayoutRecord, in db: Database) throws -> LayoutData {
        let panes = try PaneRecord.all(of: record.id, in: db)
            .map { row in
                Pane(id: PaneID(row.paneId), app: AppKind(row.app),
                     frame: Rect(x: row.x, y: row.y, width: row.width, height: row.height),
                     config: (try? Snapshot.decodeValues(row.config)) ?? [:],
                     state: (try? Snapshot.decodeValues(row.state)) ?? [:])
            }
        return LayoutData(
            name: record.name,
            grid: GridSpec(columns: record.columns, rows: record.rows,
                           minimumPaneSize: Size(width: record.minWidth, height: record.minHeight)),
            panes: panes, focused: record.focused.map(PaneID.init(rawValue:))
        )
    }

    static func validate(_ layout: LayoutData) throws {
        try validate(name: layout.name)
        do {
            try layout.validate()
        } catch {
            throw LayoutStoreError.invalidLayout(name: layout.name, reason: error.description)
        }
    }

    /// Names are shown in pickers and typed on command lines: printable, trimmed, not too long.
    public static func validate(name: String) throws {
        guard !name.isEmpty, name.count <= 64 else { throw LayoutStoreError.invalidName("use 1 to 64 characters") }
        guard name.trimmingWhitespace() == name else {
            throw LayoutStoreError.invalidName("no spaces at the start or end")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw LayoutStoreError.invalidName("no control characters")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try mapErrors { try writer.read(body) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try mapErrors { try writer.write(body) }
    }

    private func mapErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            // Damage met in use: the next start reads the whole file and sets it aside.
            if error.isDamaged, let path { IntegrityCheck(database: URL(fileURLWithPath: path)).damaged() }
            throw Self.storeError(error, path: path ?? ":memory:")
        }
    }

    static func storeError(_ error: SQLiteError, path: String) -> LayoutStoreError {
        if error.isBusy { return .locked(path: path) }
        if error.isReadOnly { return .readOnly(path: path) }
        if error.isFull { return .full(path: path) }
        return .other("layout database \(path): \(error.message)")
    }
}

/// A layout as stored, with the history that undo and redo walk.
public struct StoredLayout: Sendable {
    public let layout: LayoutData
    public let history: UndoHistory<LayoutData>
}

/// One step of a layout's history.
public struct HistoryEntry: Hashable, Sendable {
    public let position: Int
    public let step: String
    public let time: Date
    /// True for the step the layout stands at now.
    public let isCurrent: Bool
}
