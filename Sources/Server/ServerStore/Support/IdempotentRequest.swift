import Foundation
import Synchronization

/// A write request's `Idempotency-Key`, handed by `IdempotencyMiddleware` to the store through
/// the task (`current`).
///
/// The store keeps the key in the transaction of the request's write, together with what the
/// write returned (`KeyedResult`), so a crash at any point leaves the key either done (a retry
/// gets the kept result, and so the same answer) or never started (a retry runs the write). No
/// key is ever "in progress", so no retry waits on a process that died, and a write that fails
/// keeps nothing.
package final class IdempotentRequest: Sendable {
    @TaskLocal package static var current: IdempotentRequest?

    let owner: Int64
    let key: String
    /// What makes two requests "the same": method, path with query, and a SHA-256 of the body.
    let fingerprint: Data
    let now: Date
    private let state = Mutex(State())

    private struct State {
        var taken = false
        var replayed = false
    }

    package init(owner: Int64, key: String, fingerprint: Data, now: Date = Date()) {
        self.owner = owner
        self.key = key
        self.fingerprint = fingerprint
        self.now = now
    }

    /// The current request's key, for its first keyed write only: a later write in the same
    /// request (none does today) runs unkeyed rather than replaying the first one's result.
    static func take() -> IdempotentRequest? {
        guard let current else { return nil }
        return current.state.withLock { state in
            defer { state.taken = true }
            return state.taken ? nil : current
        }
    }

    /// Whether the write's result came from an earlier request with this key.
    package var wasReplayed: Bool { state.withLock { $0.replayed } }

    /// Keys older than this (seconds since 1970) are forgotten: a day, far longer than any client
    /// retries a write.
    var expiredBefore: Double { now.timeIntervalSince1970 - 24 * 60 * 60 }

    /// Whether this write also deletes the expired keys: one in 64, so the keyed write costs no
    /// extra statement most of the time. A kept key past `expiredBefore` is forgotten whether or
    /// not it was deleted yet.
    var prunes: Bool { UInt8.random(in: 0...63) == 0 }

    /// The result kept for this key, decoded; `IdempotencyMismatch` if the key was used for a
    /// different request.
    func replay<Result: KeyedResult>(fingerprint kept: Data, result: Data) throws -> Result {
        guard kept == fingerprint else { throw IdempotencyMismatch() }
        let decoded = try JSONDecoder().decode(Result.self, from: result)
        state.withLock { $0.replayed = true }
        return decoded
    }

    /// `result` as it is kept, or nil when the write changed nothing (then nothing is kept).
    func kept(_ result: some KeyedResult) throws -> Data? {
        result.changedSomething ? try JSONEncoder().encode(result) : nil
    }
}

/// The `Idempotency-Key` was used for a different request (422).
package struct IdempotencyMismatch: Error {}

/// What a keyed store write returns: kept with its key when the write changed something, and
/// returned again to a retry, which the route turns into the same answer.
protocol KeyedResult: Codable, Sendable {
    /// False for a write that found nothing to do (no such item, a name taken): its key is not
    /// kept, so a corrected retry runs.
    var changedSomething: Bool { get }
}
