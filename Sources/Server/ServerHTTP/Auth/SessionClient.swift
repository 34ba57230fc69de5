import HTTPTypes
import Hummingbird
import ServerAPI

/// The machine name a client gives when it signs in (`TermCanvas-Client`), shown in its user's
/// list of sessions: kept only when it is printable ASCII of at most `SessionInfo.clientBytes`, as
/// it is only ever told back.
package enum SessionClient {
    private static let field = HTTPField.Name(SessionInfo.clientHeader)!

    package static func name(of request: Request) -> String? {
        guard let value = request.headers[field], (1...SessionInfo.clientBytes).contains(value.utf8.count),
              value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return value
    }
}
