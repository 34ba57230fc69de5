import CalendarTime
import ServerAPI

/// What a calendar list asks for: a range, a page size and where the previous page ended.
package struct CalendarQuery: Sendable, Equatable {
    /// The range's first moment, inclusive; events ending before it are left out.
    package var from: UTCInstant?
    /// The range's last moment, inclusive; events starting after it are left out.
    package var to: UTCInstant?
    package var limit: Int
    /// Where the previous page ended.
    package var after: Cursor?

    /// A position in the list's order (start, then id); on the wire `START~ID`.
    package struct Cursor: Sendable, Equatable {
        package let start: UTCInstant
        package let id: Int64

        package init(start: UTCInstant, id: Int64) {
            self.start = start
            self.id = id
        }

        /// Reads a cursor in the documented form, `YYYY-MM-DDTHH:MM:SSZ~ID`; nil for anything else.
        /// A start that is no real moment (`0000-00-00T00:00:00Z`, `2026-02-31T…`) stands for the
        /// first real one after it: the list goes on from where that text would sort, as it does
        /// for a cursor this server gave.
        package init?(_ text: String) {
            let parts = text.split(separator: "~", omittingEmptySubsequences: false)
            let stamp = Array(parts[0].utf8)
            guard parts.count == 2, stamp.count == 20, stamp[4] == UInt8(ascii: "-"), stamp[7] == UInt8(ascii: "-"),
                  stamp[10] == UInt8(ascii: "T"), stamp[13] == UInt8(ascii: ":"), stamp[16] == UInt8(ascii: ":"),
                  stamp[19] == UInt8(ascii: "Z"), let id = CursorID.parse(parts[1]) else { return nil }
            let fields = [0..<4, 5..<7, 8..<10, 11..<13, 14..<16, 17..<19].compactMap { Int(String(decoding: stamp[$0], as: UTF8.self)) }
            guard fields.count == 6, let start = Self.firstMoment(notBefore: fields) else { return nil }
            self.init(start: start, id: id)
        }

        /// The first real moment whose text sorts at or after these fields' (year, month, day,
        /// hour, minute, second): a field past its range carries into the next larger one, one
        /// below it starts that unit.
        private static func firstMoment(notBefore fields: [Int]) -> UTCInstant? {
            var (year, month, day, hour, minute, second) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5])
            if month == 0 { (month, day, hour, minute, second) = (1, 1, 0, 0, 0) }
            if month > 12 { (year, month, day, hour, minute, second) = (year + 1, 1, 1, 0, 0, 0) }
            if day == 0 { (day, hour, minute, second) = (1, 0, 0, 0) }
            if day > CalendarDate.daysIn(month: month, year: year) {
                (day, hour, minute, second) = (1, 0, 0, 0)
                (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            }
            guard let date = CalendarDate(year: year, month: month, day: day) else { return nil }
            let seconds = if hour > 23 {
                24 * 3600  // the next day's midnight
            } else if minute > 59 {
                (hour + 1) * 3600
            } else if second > 59 {
                hour * 3600 + (minute + 1) * 60
            } else {
                hour * 3600 + minute * 60 + second
            }
            return UTCInstant(day: date, seconds: seconds)
        }

        package var text: String { "\(start)~\(id)" }
    }

    package init(from: UTCInstant? = nil, to: UTCInstant? = nil, limit: Int = CalendarLimits.maxPageSize, after: Cursor? = nil) {
        self.from = from
        self.to = to
        self.limit = limit
        self.after = after
    }
}
