/// The body of `POST /api/auth/token`.
public struct TokenRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
