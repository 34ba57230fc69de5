import CalendarTime
import SQLiteDatabase

/// Days and moments are stored as their ISO 8601 text (`2026-11-22`, `2026-11-22T09:30:00Z`),
/// whose order as text is their order in time, so ranges are plain SQL comparisons.
extension CalendarDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(iso) }

    public static func from(_ value: DatabaseValue) -> CalendarDate? {
        String.from(value).flatMap(CalendarDate.init(iso:))
    }
}

extension UTCInstant: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(iso) }

    public static func from(_ value: DatabaseValue) -> UTCInstant? {
        String.from(value).flatMap(UTCInstant.init(iso:))
    }
}
