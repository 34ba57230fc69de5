import CanvasCore
import FoundationEssentials
import SQLiteDatabase

// The store's rows as values, read by position in the order of each type's `columns`. Times are
// seconds since 1970 (a REAL; see migration v4).

/// A row of `layout`: a named arrangement's grid, focus and where it stands in its history.
struct LayoutRecord {
    let id: Int64
    var name: String
    var columns: Int
    var rows: Int
    var minWidth: Int
    var minHeight: Int
    var focused: Int?
    /// The `history.position` of the arrangement the panes show.
    var historyPosition: Int
    var createdAt: Date
    var updatedAt: Date

    static let columns = #"id, name, "columns", "rows", minWidth, minHeight, focused, historyPosition, createdAt, updatedAt"#

    init(id: Int64, name: String, columns: Int, rows: Int, minWidth: Int, minHeight: Int, focused: Int?, historyPosition: Int,
         createdAt: Date, updatedAt: Date) {
        self.id = id
        self.name = name
        self.columns = columns
        self.rows = rows
        self.minWidth = minWidth
        self.minHeight = minHeight
        self.focused = focused
        self.historyPosition = historyPosition
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    init(row: Row) throws {
        try self.init(id: row.decode(atIndex: 0), name: row.decode(atIndex: 1), columns: row.decode(atIndex: 2),
                      rows: row.decode(atIndex: 3), minWidth: row.decode(atIndex: 4), minHeight: row.decode(atIndex: 5),
                      focused: row.decode(atIndex: 6), historyPosition: row.decode(atIndex: 7),
                      createdAt: Date(timeIntervalSince1970: row.decode(atIndex: 8)),
                      updatedAt: Date(timeIntervalSince1970: row.decode(atIndex: 9)))
    }

    static func named(_ name: String, in db: Database) throws -> LayoutRecord? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM layout WHERE name = ?", arguments: [name]).map(LayoutRecord.init(row:))
    }

    /// Inserts a new layout row. - Returns: it, with its row id.
    static func insert(name: String, grid: GridSpec, focused: Int?, at date: Date, in db: Database) throws -> LayoutRecord {
        let time = date.timeIntervalSince1970
        try db.execute(sql: """
            INSERT INTO layout (name, "columns", "rows", minWidth, minHeight, focused, historyPosition, createdAt, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)
            """, arguments: [name, grid.columns, grid.rows, grid.minimumPaneSize.width, grid.minimumPaneSize.height, focused, time, time])
        return LayoutRecord(id: db.lastInsertedRowID, name: name, columns: grid.columns, rows: grid.rows,
                            minWidth: grid.minimumPaneSize.width, minHeight: grid.minimumPaneSize.height, focused: focused,
                            historyPosition: 0, createdAt: date, updatedAt: date)
    }

    func update(in db: Database) throws {
        try db.execute(sql: """
            UPDATE layout SET name = ?, "columns" = ?, "rows" = ?, minWidth = ?, minHeight = ?, focused = ?, historyPosition = ?,
              createdAt = ?, updatedAt = ? WHERE id = ?
            """, arguments: [name, columns, rows, minWidth, minHeight, focused, historyPosition, createdAt.timeIntervalSince1970,
                             updatedAt.timeIntervalSince1970, id])
    }
}

/// A row of `pane`: one pane of a layout, with its widget's settings and state as JSON.
struct PaneRecord {
    var layoutId: Int64
    var paneId: Int
    var position: Int
    var app: String
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var config: String
    var state: String

    static let columns = "layoutId, paneId, position, app, x, y, width, height, config, state"

    init(layoutId: Int64, paneId: Int, position: Int, app: String, x: Int, y: Int, width: Int, height: Int, config: String,
         state: String) {
        self.layoutId = layoutId
        self.paneId = paneId
        self.position = position
        self.app = app
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.config = config
        self.state = state
    }

    init(row: Row) throws {
        try self.init(layoutId: row.decode(atIndex: 0), paneId: row.decode(atIndex: 1), position: row.decode(atIndex: 2),
                      app: row.decode(atIndex: 3), x: row.decode(atIndex: 4), y: row.decode(atIndex: 5), width: row.decode(atIndex: 6),
                      height: row.decode(atIndex: 7), config: row.decode(atIndex: 8), state: row.decode(atIndex: 9))
    }

    /// A layout's panes in their order.
    static func all(of layoutId: Int64, in db: Database) throws -> [PaneRecord] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM pane WHERE layoutId = ? ORDER BY position", arguments: [layoutId])
            .map(PaneRecord.init(row:))
    }

    func insert(in db: Database) throws {
        try db.execute(sql: "INSERT INTO pane (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       arguments: [layoutId, paneId, position, app, x, y, width, height, config, state])
    }
}

/// A row of `history`: the arrangement after one step, as JSON of `LayoutData`.
struct HistoryRecord {
    let id: Int64
    var layoutId: Int64
    var position: Int
    var step: String
    var snapshot: String
    var createdAt: Date

    static let columns = "id, layoutId, position, step, snapshot, createdAt"

    init(row: Row) throws {
        id = try row.decode(atIndex: 0)
        layoutId = try row.decode(atIndex: 1)
        position = try row.decode(atIndex: 2)
        step = try row.decode(atIndex: 3)
        snapshot = try row.decode(atIndex: 4)
        createdAt = Date(timeIntervalSince1970: try row.decode(atIndex: 5))
    }

    /// A layout's steps, oldest first.
    static func all(of layoutId: Int64, in db: Database) throws -> [HistoryRecord] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM history WHERE layoutId = ? ORDER BY position", arguments: [layoutId])
            .map(HistoryRecord.init(row:))
    }

    static func insert(layoutId: Int64, position: Int, step: String, snapshot: String, at date: Date, in db: Database) throws {
        try db.execute(sql: "INSERT INTO history (layoutId, position, step, snapshot, createdAt) VALUES (?, ?, ?, ?, ?)",
                       arguments: [layoutId, position, step, snapshot, date.timeIntervalSince1970])
    }
}
