import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ServerAPI
import ServerStore

/// Applies a write carrying an `Idempotency-Key` at most once per user and key.
///
/// Clients resend writes whose answer they never saw (a timeout, a dropped connection, an outbox
/// sent again after being offline). The middleware hands the key to the store
/// (`IdempotentRequest`), which keeps it in the write's own transaction with what the write
/// returned, for a day; a repeat of the same request (method, path and body) gets that result
/// again, so the route gives the same answer, with `Idempotent-Replayed: true`, and nothing
/// changes. The same key on a different request is 422. A repeat while the first still runs
/// waits for it (SQLite runs one write at a time; on PostgreSQL the key's row does the waiting)
/// and then gets its answer. A request that fails keeps nothing, so its retry runs. Requests
/// without the header, and reads, pass through untouched; routes whose writes are not the
/// store's (a remote app's session) ignore the key, as the API document says.
package struct IdempotencyMiddleware: RouterMiddleware {
    package typealias Context = BFFRequestContext

    package init() {}

    static let keyHeader = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    /// Longer keys are refused: a UUID is 36 characters.
    static let maxKeyLength = 255

    /// A fault switch for tests of a crash between a keyed write's commit and its answer
    /// (`TERMCANVAS_TEST_FAULT=kill-after-write`): the server kills itself there with SIGKILL.
    private let killAfterWrite = ProcessInfo.processInfo.environment["TERMCANVAS_TEST_FAULT"] == "kill-after-write"

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.writeMethods.contains(request.method), let key = request.headers[Self.keyHeader] else {
            return try await next(request, context)
        }
        try Self.validate(key)
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let keyed = IdempotentRequest(owner: try context.userID(), key: key, fingerprint: Self.fingerprint(request, body: body))
        var response: Response
        do {
            response = try await IdempotentRequest.$current.withValue(keyed) { try await next(request, context) }
        } catch is IdempotencyMismatch {
            throw APIFailure(status: .unprocessableContent,
                             body: APIError(error: "this Idempotency-Key was used for a different request", field: Self.keyHeader.rawName))
        }
        if keyed.wasReplayed {
            context.logger.info("idempotent replay", metadata: ["status": "\(response.status.code)"])
            response.headers[Self.replayedHeader] = "true"
        } else if killAfterWrite, (200..<300).contains(response.status.code) {
            kill(getpid(), SIGKILL)
        }
        return response
    }

    private static let writeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// 400 unless `key` is 1 to 255 visible ASCII characters.
    static func validate(_ key: String) throws {
        let visible = key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
        guard visible, (1...maxKeyLength).contains(key.utf8.count) else {
            throw APIFailure.badRequest("Idempotency-Key must be 1 to \(maxKeyLength) visible ASCII characters", field: keyHeader.rawName)
        }
    }

    /// What makes two requests "the same": method, path with query, and a SHA-256 of the body.
    static func fingerprint(_ request: Request, body: ByteBuffer) -> Data {
        var hash = SHA256()
        hash.update(data: Data("\(request.method.rawValue) \(request.uri.description)\n".utf8))
        hash.update(data: Data(body.readableBytesView))
        return Data(hash.finalize())
    }
}
