import Foundation
import JWTKit
import Synchronization

/// Signs and checks HS256 bearer tokens with one secret.
struct TokenIssuer: Sendable {
    let keys: JWTKeyCollection
    let lifetime: TimeInterval
    private let verified = VerifiedTokens()

    init(secret: String, lifetime: TimeInterval) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetime = lifetime
    }

    /// A signed token for `user` that expires `lifetime` from `now`.
    func issue(for user: BFFUser, now: Date = Date()) async throws -> String {
        try await keys.sign(TokenClaims(userID: user.id, name: user.name, expires: .init(value: now + lifetime)))
    }

    /// The claims of a token whose signature checks out and which has not expired; nil otherwise.
    func verify(_ token: String, now: Date = Date()) async -> TokenClaims? {
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
