import Foundation

/// How a team server trusts an OpenID Connect provider (`serve --oidc-issuer URL --oidc-client-id ID …`).
package struct SingleSignOnSettings: Sendable {
    /// The issuer exactly as the provider writes it in its tokens' `iss`, e.g.
    /// `https://login.example.com/realms/team`; its discovery document is at
    /// `ISSUER/.well-known/openid-configuration`.
    package var issuer: String
    /// The client registered at the provider for TermCanvas (public, with the device grant).
    package var clientID: String
    /// The client's secret, for a provider that wants one with the device grant (Google).
    package var clientSecret: String?
    /// Members of this group are the server's admins; nil leaves admin rights to `termcanvas user admin`.
    package var adminGroup: String?
    /// Only members of this group may sign in; nil lets in everyone the provider signs in.
    package var userGroup: String?
    /// The claim holding the user's groups (`groups` at Keycloak, Okta and Dex; `roles` at Entra ID
    /// with app roles).
    package var groupsClaim: String
    /// The scopes asked for at the device login.
    package var scopes: [String]
    /// Where the device login starts, for a provider whose discovery document does not say.
    package var deviceAuthorizationEndpoint: URL?
    /// The longest a token from a single sign-on lives before the server asks the provider again
    /// (a renewal): a user disabled at the provider loses the server within it, or within the
    /// provider's access token's lifetime when that is shorter.
    package var sessionLifetime: TimeInterval
    /// Whether `POST /api/auth/token` still takes passwords (local users kept for break-glass).
    package var passwords: Bool
    /// How far the provider's clock may be from ours, for `exp`, `iat` and `nbf`.
    package var clockSkew: TimeInterval
    /// The provider's keys are fetched again for an unknown key id at most this often.
    package var keyRefetchInterval: Duration

    package init(
        issuer: String, clientID: String, clientSecret: String? = nil, adminGroup: String? = nil, userGroup: String? = nil,
        groupsClaim: String = "groups",
        scopes: [String] = Self.defaultScopes, deviceAuthorizationEndpoint: URL? = nil, sessionLifetime: TimeInterval = 900,
        passwords: Bool = true, clockSkew: TimeInterval = 60, keyRefetchInterval: Duration = .seconds(60)
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.adminGroup = adminGroup
        self.userGroup = userGroup
        self.groupsClaim = groupsClaim
        self.scopes = scopes
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.sessionLifetime = sessionLifetime
        self.passwords = passwords
        self.clockSkew = clockSkew
        self.keyRefetchInterval = keyRefetchInterval
    }

    /// `offline_access` asks for a refresh token, which renewals need.
    package static let defaultScopes = ["openid", "profile", "email", "offline_access"]
}
