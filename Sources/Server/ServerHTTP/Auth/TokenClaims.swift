import JWTKit

/// What a BFF bearer token says: which user (`sub`, their id), their name, and when it expires.
public struct TokenClaims: JWTPayload {
    public var sub: SubjectClaim
    public var name: String
    public var exp: ExpirationClaim

    public init(userID: Int64, name: String, expires: ExpirationClaim) {
        self.sub = SubjectClaim(value: String(userID))
        self.name = name
        self.exp = expires
    }

    /// The user id in `sub`, or nil when it is not a number.
    public var userID: Int64? { Int64(sub.value) }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
