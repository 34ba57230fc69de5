import Foundation
import JWTKit

/// Signs and checks HS256 bearer tokens with one secret.
struct TokenIssuer: Sendable {
    let keys: JWTKeyCollection
    let lifetime: TimeInterval

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
    func verify(_ token: String) async -> TokenClaims? {
        try? await keys.verify(token, as: TokenClaims.self)
    }
}
