import Foundation
import JWTKit

/// What a BFF bearer token says: which user (`sub`, their id), their name, which of their sessions
/// (`sid`; a token is good only while it lasts), and when it expires.
package struct TokenClaims: JWTPayload {
    package var sub: SubjectClaim
    package var name: String
    /// Nil in a token made before sessions were, which is refused.
    package var sid: String?
    /// When it was made: a token newer than what a server remembers of its user's sessions makes
    /// it look them up again (`RecentUsers`), so a session just started is not refused.
    package var iat: IssuedAtClaim?
    package var exp: ExpirationClaim

    package init(userID: Int64, name: String, session: String, issuedAt: Date = Date(), expires: ExpirationClaim) {
        self.sub = SubjectClaim(value: String(userID))
        self.name = name
        self.sid = session
        self.iat = IssuedAtClaim(value: issuedAt)
        self.exp = expires
    }

    /// The user id in `sub`, or nil when it is not a number.
    package var userID: Int64? { Int64(sub.value) }

    package func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
