import CanvasCore
import FoundationEssentials
import SQLiteDatabase

/// One start's load times as stored, with when it was.
public struct StoredLoadTimes: Hashable, Sendable {
    public let recordedAt: Date
    public let times: LoadTimes
}

extension LayoutStore {
    /// How many starts' load times are kept: the oldest go as new ones come.
    public static let keptLoadTimes = 50

    /// Keeps one start's load times.
    public func record(_ times: LoadTimes, at date: Date = Date()) throws {
        try write { db in
            try db.execute(sql: "INSERT INTO loadTime (recordedAt, layout, app, milliseconds) VALUES (?, ?, NULL, ?)",
                           arguments: [date.timeIntervalSince1970, times.layout, times.canvasLoadTime.fractionalMilliseconds])
            let start = db.lastInsertedRowID
            for pane in times.panes {
                try db.execute(sql: "INSERT INTO loadTime (start, recordedAt, layout, app, milliseconds) VALUES (?, ?, ?, ?, ?)",
                               arguments: [start, date.timeIntervalSince1970, times.layout, pane.app.rawValue,
                                           pane.microAppLoadTime.fractionalMilliseconds])
            }
            try db.execute(sql: """
                DELETE FROM loadTime WHERE coalesce(start, id) NOT IN
                  (SELECT id FROM loadTime WHERE start IS NULL ORDER BY id DESC LIMIT ?)
                """, arguments: [Self.keptLoadTimes])
        }
    }

    /// The starts' load times kept, newest first.
    public func loadTimes() throws -> [StoredLoadTimes] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, start, recordedAt, layout, app, milliseconds FROM loadTime ORDER BY id")
            var panes: [Int64: [LoadTimes.Pane]] = [:]
            var starts: [Row] = []
            for row in rows {
                guard let start = try row.decode(Int64?.self, forColumn: "start") else {
                    starts.append(row)
                    continue
                }
                let pane = try LoadTimes.Pane(app: AppKind(row.decode(forColumn: "app")), microAppLoadTime: .milliseconds(row.decode(Double.self, forColumn: "milliseconds")))
                panes[start, default: []].append(pane)
            }
            return try starts.reversed().map { row in
                let id: Int64 = try row.decode(forColumn: "id")
                return try StoredLoadTimes(recordedAt: Date(timeIntervalSince1970: row.decode(forColumn: "recordedAt")),
                                           times: LoadTimes(layout: row.decode(forColumn: "layout"), canvasLoadTime: .milliseconds(row.decode(Double.self, forColumn: "milliseconds")),
                                                            panes: panes[id] ?? []))
            }
        }
    }
}
