/// A token endpoint's answer (RFC 6749 §5.1), what of it the server uses.
struct ProviderTokens: Decodable, Sendable {
    let accessToken: String
    let idToken: String?
    let refreshToken: String?
    /// Seconds the access token lives, when the provider says.
    let expiresIn: Double?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }
}

/// A token endpoint's refusal (RFC 6749 §5.2, RFC 8628 §3.5).
struct ProviderError: Decodable, Sendable {
    let error: String
}

/// A device authorization's answer (RFC 8628 §3.2).
public struct DeviceAuthorization: Decodable, Sendable {
    public let deviceCode: String
    public let userCode: String
    public let verificationURI: String
    public let verificationURIComplete: String?
    public let expiresIn: Double
    public let interval: Double?

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }
}

/// Where a device login stands at the provider.
public enum DeviceLoginState: Sendable {
    case pending
    case slowDown
    case denied
    case expired
    case signedIn(SignedIn)
}

/// A sign-in the provider vouched for: who, and what renews it.
public struct SignedIn: Sendable {
    public let identity: Identity
    /// What asks the provider again at a renewal; nil when the provider gave none.
    public let refreshToken: String?
    /// When the provider's access token expires, when it said.
    public let accessTokenExpiry: Double?

    public init(identity: Identity, refreshToken: String?, accessTokenExpiry: Double?) {
        self.identity = identity
        self.refreshToken = refreshToken
        self.accessTokenExpiry = accessTokenExpiry
    }
}
