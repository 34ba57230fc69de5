import CalendarTime
import GRDB

/// Days and moments are stored as their ISO 8601 text (`2026-11-22`, `2026-11-22T09:30:00Z`),
/// whose order as text is their order in time, so ranges are plain SQL comparisons.
extension CalendarDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { iso.databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> CalendarDate? {
        String.fromDatabaseValue(value).flatMap(CalendarDate.init(iso:))
    }
}

extension UTCInstant: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { iso.databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> UTCInstant? {
        String.fromDatabaseValue(value).flatMap(UTCInstant.init(iso:))
    }
}
