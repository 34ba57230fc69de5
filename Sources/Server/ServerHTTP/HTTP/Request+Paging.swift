import Hummingbird
import ServerStore

/// The paging parameters every list shares: `limit` and `cursor` (the `next` of the page before).
extension Request {
    /// `limit`, 1 through `maximum`; `fallback` when absent.
    /// - Throws: 400 naming `limit`.
    package func pageLimit(maximum: Int, default fallback: Int) throws -> Int {
        guard let text = uri.queryParameters.get("limit") else { return fallback }
        guard let value = Int(text), (1...maximum).contains(value) else {
            throw APIFailure.badRequest("must be an integer from 1 to \(maximum)", field: "limit")
        }
        return value
    }

    /// `cursor` as `parse` reads it; nil when absent.
    /// - Throws: 400 naming `cursor` when `parse` does not take it.
    package func pageCursor<Cursor>(_ parse: (String) -> Cursor?) throws -> Cursor? {
        guard let text = uri.queryParameters.get("cursor") else { return nil }
        guard let cursor = parse(text) else { throw APIFailure.badRequest("is not a cursor this server gave", field: "cursor") }
        return cursor
    }

    /// A cursor that is a row id (`next` of lists ordered by id).
    package static func idCursor(_ text: String) -> Int64? { CursorID.parse(text) }
}
