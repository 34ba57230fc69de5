import Foundation
import JWTKit
import ServerStore
import Synchronization

/// Signs and checks HS256 bearer tokens with one secret.
package struct TokenIssuer: Sendable {
    let keys: JWTKeyCollection
    package let lifetime: TimeInterval
    /// What "now" is when no time is given.
    let clock: @Sendable () -> Date
    private let verified = VerifiedTokens()

    package init(secret: String, lifetime: TimeInterval, clock: @escaping @Sendable () -> Date = { Date() }) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetime = lifetime
        self.clock = clock
    }

    /// A signed token of `user`'s `session` that expires `lifetime` (the issuer's, when not given)
    /// from `now` (the clock's, when not given).
    package func issue(for user: BFFUser, session: String, lifetime: TimeInterval? = nil, now: Date? = nil) async throws -> String {
        let now = now ?? clock()
        return try await keys.sign(TokenClaims(userID: user.id, name: user.name, session: session, issuedAt: now,
                                               expires: .init(value: now + (lifetime ?? self.lifetime))))
    }

    /// The clock's now.
    package var now: Date { clock() }

    /// The claims of a token whose signature checks out and which has not expired at `now` (the
    /// clock's, when not given); nil otherwise.
    func verify(_ token: String, now: Date? = nil) async -> TokenClaims? {
        let now = now ?? clock()
        if let claims = verified.claims(for: token) { return claims.exp.value > now ? claims : nil }
        guard let claims = try? await keys.verify(token, as: TokenClaims.self), claims.exp.value > now else { return nil }
        verified.remember(claims, for: token)
        return claims
    }
}

/// Tokens whose signature was checked already, so a client's every request does not decode and
/// check the same token again (a tenth of a small request's time); expiry is still checked each
/// time. Bounded: when full it starts over.
private final class VerifiedTokens: Sendable {
    private static let capacity = 4096
    private let claims = Mutex<[String: TokenClaims]>([:])

    func claims(for token: String) -> TokenClaims? {
        claims.withLock { $0[token] }
    }

    func remember(_ verified: TokenClaims, for token: String) {
        claims.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[token] = verified
        }
    }
}
