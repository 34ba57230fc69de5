import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

extension TodoQuery {
    /// Reads `done`, `from`, `to`, `limit` and `cursor` from a list request's query string.
    /// - Throws: `APIFailure.badRequest` naming the parameter at fault.
    init(parsing request: Request) throws {
        let parameters = request.uri.queryParameters
        self.init()
        if let done = parameters.get("done") {
            switch done {
            case "true": self.done = true
            case "false": self.done = false
            default: throw APIFailure.badRequest("must be true or false", field: "done")
            }
        }
        if let from = parameters.get("from") { self.from = try TodoValidation.date(from, field: "from") }
        if let to = parameters.get("to") { self.to = try TodoValidation.date(to, field: "to") }
        if let from = self.from, let to = self.to, from > to {
            throw APIFailure.badRequest("must not be after 'to'", field: "from")
        }
        limit = try request.pageLimit(maximum: TodoLimits.maxPageSize, default: limit)
        after = try request.pageCursor(Request.idCursor)
    }
}
