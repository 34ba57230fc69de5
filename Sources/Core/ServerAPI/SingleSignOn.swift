/// `GET /api/auth/sso`: whether the server signs in through an OpenID Connect provider, which,
/// and whether it still takes passwords.
public struct SingleSignOnInfo: Codable, Sendable, Equatable {
    public var issuer: String
    public var passwords: Bool

    public init(issuer: String, passwords: Bool) {
        self.issuer = issuer
        self.passwords = passwords
    }
}

/// `POST /api/auth/sso/device`: a device login started at the provider. The user opens
/// `verificationURI` (or `verificationURIComplete`, which holds the code) and enters `userCode`;
/// the client polls `POST /api/auth/sso` with `login` every `interval` seconds until `expiresIn`.
public struct DeviceLogin: Codable, Sendable, Equatable {
    public var login: String
    public var userCode: String
    public var verificationURI: String
    public var verificationURIComplete: String?
    public var expiresIn: Int
    public var interval: Int

    public init(login: String, userCode: String, verificationURI: String, verificationURIComplete: String?, expiresIn: Int, interval: Int) {
        self.login = login
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }
}

/// `POST /api/auth/sso`: exactly one of a device login to finish, an ID token the provider issued
/// to this server's client, or a renewal handle from an earlier sign-in.
///
/// Not an access token: it names no audience the server could check, so one that another app of
/// the same provider obtained from its user would sign that user in here. The server takes access
/// tokens only from its own device logins, straight from the provider.
public struct SingleSignOnRequest: Codable, Sendable, Equatable {
    public var login: String?
    public var idToken: String?
    public var renewal: String?

    public init(login: String? = nil, idToken: String? = nil, renewal: String? = nil) {
        self.login = login
        self.idToken = idToken
        self.renewal = renewal
    }
}

/// `POST /api/auth/sso`, 202: the user has not answered at the provider yet; ask again in
/// `interval` seconds (`status` `slow_down` when asked too often).
public struct DeviceLoginWait: Codable, Sendable, Equatable {
    public var status: String
    public var interval: Int

    public init(status: String, interval: Int) {
        self.status = status
        self.interval = interval
    }
}

/// `POST /api/auth/sso`, 200: the server's token, as a password login's, and how to renew it.
public struct SingleSignOnLogin: Codable, Sendable, Equatable {
    public var token: String
    /// Seconds the token lives: the session's lifetime, or the provider's access token's when shorter.
    public var expiresIn: Int
    /// Sent back to renew the sign-in before `expiresIn` (once: each renewal gives a new one); nil
    /// when the provider gave no refresh token.
    public var renewal: String?
    public var user: String
    public var admin: Bool
    /// The name the user would have had at their first sign-in, when another user had it.
    public var nameTaken: String?

    public init(token: String, expiresIn: Int, renewal: String?, user: String, admin: Bool, nameTaken: String?) {
        self.token = token
        self.expiresIn = expiresIn
        self.renewal = renewal
        self.user = user
        self.admin = admin
        self.nameTaken = nameTaken
    }
}

/// `POST /api/auth/sso/logout`: ends the renewable session of `renewal`.
public struct SingleSignOnLogout: Codable, Sendable, Equatable {
    public var renewal: String

    public init(renewal: String) {
        self.renewal = renewal
    }
}
