/// The answer to `POST /api/auth/token`: a signed bearer token with an expiry.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}
