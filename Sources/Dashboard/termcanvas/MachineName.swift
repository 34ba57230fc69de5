import CommandSupport
#if canImport(Glibc)
import Glibc
#endif
import HTTPClient
import ServerAPI

/// This machine's name as a sign-in gives it (`TermCanvas-Client`), so the user's list of sessions
/// (`termcanvas sessions`) says which machine each is.
enum MachineName {
    /// The host name, when it is printable ASCII of at most `SessionInfo.clientBytes`.
    static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard (1...SessionInfo.clientBytes).contains(name.utf8.count), name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return name
    }

    /// `request` naming this machine.
    static func naming(_ request: HTTPClient.Request) -> HTTPClient.Request {
        var named = request
        if let current { named.headers.append((name: SessionInfo.clientHeader, value: current)) }
        return named
    }
}
