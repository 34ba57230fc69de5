import CalendarTime
import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

extension CalendarQuery {
    /// Reads `from`, `to` (date-times with a zone, or dates meaning their first and last second,
    /// UTC), `limit` and `cursor` from a list request's query string.
    /// - Throws: `APIFailure.badRequest` naming the parameter at fault.
    /// `readsCursor` false: the caller reads a cursor of its own (the export's, an id).
    init(parsing request: Request, pageSize: Int = CalendarLimits.maxPageSize, readsCursor: Bool = true) throws {
        let parameters = request.uri.queryParameters
        self.init()
        if let from = parameters.get("from") { self.from = try Self.bound(from, field: "from", dayTime: "T00:00:00Z") }
        if let to = parameters.get("to") { self.to = try Self.bound(to, field: "to", dayTime: "T23:59:59Z") }
        if let from, let to, from > to { throw APIFailure.badRequest("must not be before 'from'", field: "to") }
        limit = try request.pageLimit(maximum: pageSize, default: pageSize)
        if readsCursor { after = try request.pageCursor(Cursor.init) }
    }

    private static func bound(_ text: String, field: String, dayTime: String) throws -> UTCInstant {
        if CalendarDate(iso: text) != nil { return try CalendarValidation.dateTime(text + dayTime, field: field) }
        return try CalendarValidation.dateTime(text, field: field)
    }
}
