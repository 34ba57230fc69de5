import CanvasCore
import Foundation
import GRDB

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
            for row in rows {
                guard let start: Int64 = row["start"], let app: String = row["app"] else { continue }
                panes[start, default: []].append(LoadTimes.Pane(app: AppKind(app), microAppLoadTime: .milliseconds(row["milliseconds"] as Double)))
            }
            return rows.filter { ($0["start"] as Int64?) == nil }.reversed().map { row in
                let id: Int64 = row["id"]
                return StoredLoadTimes(recordedAt: Date(timeIntervalSince1970: row["recordedAt"]),
                                       times: LoadTimes(layout: row["layout"], canvasLoadTime: .milliseconds(row["milliseconds"] as Double),
                                                        panes: panes[id] ?? []))
            }
        }
    }
}
