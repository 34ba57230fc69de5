import Foundation

/// What the store knows of an `Idempotency-Key` when a request arrives with it.
public enum IdempotencyClaim: Equatable, Sendable {
    /// The key is new (or its first request was abandoned): this request runs, and must then
    /// `completeIdempotencyKey` or `releaseIdempotencyKey` with this claim's time, so that a
    /// request that lost its claim (it ran past `abandonedAfter`) changes nothing of the next.
    case claimed(at: Double)
    /// The same request succeeded before: answer with this again.
    case replay(StoredAnswer)
    /// The same request is still running.
    case inProgress
    /// The key was used for a different request.
    case mismatch
}

/// A successful answer kept for replay.
public struct StoredAnswer: Equatable, Sendable {
    let status: Int
    let contentType: String?
    let location: String?
    let body: Data
}

/// How long keys are kept.
enum IdempotencyKeys {
    /// A completed key answers repeats for a day: far longer than any client retries a write.
    static let retention: TimeInterval = 24 * 60 * 60
    /// A key whose first request neither completed nor was released in this time (the server
    /// stopped while running it) may be claimed again.
    static let abandonedAfter: TimeInterval = 60
}
