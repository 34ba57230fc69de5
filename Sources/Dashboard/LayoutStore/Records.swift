import CanvasCore
import Foundation
import GRDB

/// A row of `layout`: a named arrangement's grid, focus and where it stands in its history.
struct LayoutRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "layout"
    var id: Int64?
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

    enum Columns {
        static let name = Column(CodingKeys.name)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension LayoutRecord: SecondsSince1970Dates {}

/// A row of `pane`: one pane of a layout, with its widget's settings and state as JSON.
struct PaneRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pane"
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

    enum Columns {
        static let layoutId = Column(CodingKeys.layoutId)
        static let position = Column(CodingKeys.position)
    }
}

/// A row of `history`: the arrangement after one step, as JSON of `LayoutData`.
struct HistoryRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "history"
    var id: Int64?
    var layoutId: Int64
    var position: Int
    var step: String
    var snapshot: String
    var createdAt: Date

    enum Columns {
        static let layoutId = Column(CodingKeys.layoutId)
        static let position = Column(CodingKeys.position)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension HistoryRecord: SecondsSince1970Dates {}

/// A row of `preference`: small remembered choices such as the last layout and the theme.
struct PreferenceRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "preference"
    var key: String
    var value: String
}

/// Records whose times are stored as seconds since 1970 (a `REAL`), not as GRDB's date text:
/// formatting and parsing that text loads ICU's calendar data (see migration v4).
protocol SecondsSince1970Dates: FetchableRecord, EncodableRecord {}

extension SecondsSince1970Dates {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
}

extension LayoutRecord {
    /// Its row id: every record read from the database or inserted has one. A record without one
    /// would be a bug in this store, reported as an error rather than ending the dashboard.
    func rowID() throws -> Int64 {
        guard let id else { throw LayoutStoreError.other("layout '\(name)' has no row id") }
        return id
    }
}
