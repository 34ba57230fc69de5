import Hummingbird
import MicroAppAPI

/// What a calendar list asks for: a range (UTC date-times, inclusive), a page size and where the
/// previous page ended.
struct CalendarQuery: Sendable, Equatable {
    var from: String?
    var to: String?
    var limit = CalendarLimits.maxPageSize
    var after: Cursor?

    /// A position in the list's order (start, then id); on the wire `START~ID`.
    struct Cursor: Sendable, Equatable {
        let start: String
        let id: Int64

        var text: String { "\(start)~\(id)" }

        init(start: String, id: Int64) {
            self.start = start
            self.id = id
        }

        init?(_ text: String) {
            let parts = text.split(separator: "~", omittingEmptySubsequences: false)
            guard parts.count == 2, let start = ISODateTime.utc(String(parts[0])), start == parts[0],
                  let id = Int64(parts[1]), id >= 0 else { return nil }
            self.init(start: start, id: id)
        }
    }
}

extension CalendarQuery {
    /// Reads `from`, `to` (date-times, or dates meaning their first and last second), `limit` and
    /// `cursor`. - Throws: `APIFailure.badRequest` naming the parameter at fault.
    init(parsing request: Request) throws {
        let parameters = request.uri.queryParameters
        if let from = parameters.get("from") { self.from = try Self.bound(from, field: "from", dayTime: "T00:00:00Z") }
        if let to = parameters.get("to") { self.to = try Self.bound(to, field: "to", dayTime: "T23:59:59Z") }
        if let from, let to, from > to { throw APIFailure.badRequest("must not be before 'from'", field: "to") }
        if let limit = parameters.get("limit") {
            guard let value = Int(limit), (1...CalendarLimits.maxPageSize).contains(value) else {
                throw APIFailure.badRequest("must be an integer from 1 to \(CalendarLimits.maxPageSize)", field: "limit")
            }
            self.limit = value
        }
        if let cursor = parameters.get("cursor") {
            guard let after = Cursor(cursor) else { throw APIFailure.badRequest("is not a cursor this server gave", field: "cursor") }
            self.after = after
        }
    }

    private static func bound(_ text: String, field: String, dayTime: String) throws -> String {
        if ISODate.isValid(text) { return try CalendarValidation.dateTime(text + dayTime, field: field) }
        return try CalendarValidation.dateTime(text, field: field)
    }
}
