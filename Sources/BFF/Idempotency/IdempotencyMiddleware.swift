import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import MicroAppAPI

/// Applies a write carrying an `Idempotency-Key` at most once per user and key.
///
/// Clients resend writes whose answer they never saw (a timeout, a dropped connection, an outbox
/// sent again after being offline). The first request with a key runs and, when it succeeds, its
/// answer is kept for a day; a repeat of the same request (method, path and body) gets that answer
/// again with `Idempotent-Replayed: true` and changes nothing. The same key on a different request
/// is 422, and a repeat while the first still runs is 409 with `Retry-After`. A request that fails
/// frees its key, since a failed write changed nothing. Requests without the header, and reads,
/// pass through untouched.
///
/// The answer is kept in a transaction of its own, after the write's: a server that stops
/// between the two leaves the key claimed, and a resend a minute later runs the write again.
/// Making the key part of every write's transaction would close that window.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = BFFRequestContext

    let store: any BFFStore

    static let keyHeader = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    /// Longer keys are refused: a UUID is 36 characters.
    static let maxKeyLength = 255

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.writeMethods.contains(request.method), let key = request.headers[Self.keyHeader] else {
            return try await next(request, context)
        }
        try Self.validate(key)
        let owner = try context.userID()
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let fingerprint = Self.fingerprint(request, body: body)
        let claimedAt: Double
        switch try await store.claimIdempotencyKey(owner: owner, key: key, fingerprint: fingerprint) {
        case .claimed(let time):
            claimedAt = time
        case .replay(let answer):
            context.logger.info("idempotent replay", metadata: ["status": "\(answer.status)"])
            return Self.response(replaying: answer)
        case .inProgress:
            throw APIFailure(status: .conflict, body: APIError(error: "a request with this Idempotency-Key is still running",
                                                                field: Self.keyHeader.rawName),
                             headers: [.retryAfter: "1"])
        case .mismatch:
            throw APIFailure(status: .unprocessableContent,
                             body: APIError(error: "this Idempotency-Key was used for a different request", field: Self.keyHeader.rawName))
        }

        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            try? await store.releaseIdempotencyKey(owner: owner, key: key, claimedAt: claimedAt)
            throw error
        }
        guard (200..<300).contains(response.status.code) else {
            try? await store.releaseIdempotencyKey(owner: owner, key: key, claimedAt: claimedAt)
            return response
        }
        var answered = response
        let answerBody = try await response.body.collected()
        answered.body = ResponseBody(byteBuffer: answerBody)
        do {
            try await store.completeIdempotencyKey(owner: owner, key: key, claimedAt: claimedAt, answer: StoredAnswer(
                status: response.status.code, contentType: response.headers[.contentType], location: response.headers[.location],
                body: Data(answerBody.readableBytesView)))
        } catch {
            // The write is done: say so rather than fail a request whose retry would be refused.
            context.logger.error("idempotent answer not kept", metadata: ["error": "\(error)"])
        }
        return answered
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

    /// The kept answer again. Only the headers the write routes set are kept (`Content-Type`,
    /// `Location`): a route that adds another must add it to `StoredAnswer` too.
    static func response(replaying answer: StoredAnswer) -> Response {
        var headers: HTTPFields = [replayedHeader: "true"]
        if let contentType = answer.contentType { headers[.contentType] = contentType }
        if let location = answer.location { headers[.location] = location }
        let status = HTTPResponse.Status(code: answer.status)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

extension ResponseBody {
    /// The whole body as one buffer. Only for the API's own small JSON answers: a streamed body
    /// (the live event stream) would never end.
    consuming func collected() async throws -> ByteBuffer {
        let collector = BodyCollector()
        try await write(collector)
        return collector.buffer
    }
}

/// A `ResponseBodyWriter` that keeps what is written instead of sending it.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var part = buffer
        self.buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
