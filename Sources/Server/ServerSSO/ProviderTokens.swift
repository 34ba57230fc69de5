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
package struct DeviceAuthorization: Decodable, Sendable {
    package let deviceCode: String
    package let userCode: String
    package let verificationURI: String
    package let verificationURIComplete: String?
    package let expiresIn: Double
    package let interval: Double?

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
package enum DeviceLoginState: Sendable {
    case pending
    case slowDown
    case denied
    case expired
    case signedIn(SignedIn)
}

/// A sign-in the provider vouched for: who, and what renews it.
package struct SignedIn: Sendable {
    package let identity: Identity
    /// What asks the provider again at a renewal; nil when the provider gave none.
    package let refreshToken: String?
    /// When the provider's access token expires, when it said.
    package let accessTokenExpiry: Double?

    package init(identity: Identity, refreshToken: String?, accessTokenExpiry: Double?) {
        self.identity = identity
        self.refreshToken = refreshToken
        self.accessTokenExpiry = accessTokenExpiry
    }
}
