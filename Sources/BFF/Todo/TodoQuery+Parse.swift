import Hummingbird
import MicroAppAPI

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
        if let from = parameters.get("from") {
            try TodoValidation.date(from, field: "from")
            self.from = from
        }
        if let to = parameters.get("to") {
            try TodoValidation.date(to, field: "to")
            self.to = to
        }
        if let from = self.from, let to = self.to, from > to {
            throw APIFailure.badRequest("must not be after 'to'", field: "from")
        }
        if let limit = parameters.get("limit") {
            guard let value = Int(limit), (1...TodoLimits.maxPageSize).contains(value) else {
                throw APIFailure.badRequest("must be an integer from 1 to \(TodoLimits.maxPageSize)", field: "limit")
            }
            self.limit = value
        }
        if let cursor = parameters.get("cursor") {
            guard let after = Int64(cursor), after >= 0 else {
                throw APIFailure.badRequest("is not a cursor this server gave", field: "cursor")
            }
            self.after = after
        }
    }
}
