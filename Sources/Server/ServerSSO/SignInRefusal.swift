/// Why a single sign-on was refused, in words for the audit log and the user.
package enum SignInRefusal: Error, Sendable, Equatable {
    case malformedToken
    /// `alg` is not one of the asymmetric algorithms the provider signs with (`none`, HMAC…).
    case algorithmNotAllowed(String)
    case unknownKey
    case badSignature
    case unknownIssuer
    case wrongAudience
    case expired
    case notYetValid
    case missingSubject
    /// The provider no longer accepts the access token or the refresh token (user disabled,
    /// session ended, token revoked).
    case providerRefused
    /// The same token, or the same device login, was presented before.
    case replayed
    /// The user is not in the group the server lets in (`--oidc-user-group`).
    case notInGroup(String)
    /// The provider could not be reached or answered what it should not.
    case providerUnavailable(String)

    /// For the audit log's detail and the refusal's message.
    package var reason: String {
        switch self {
        case .malformedToken: "the token is not a well-formed JWT"
        case .algorithmNotAllowed(let algorithm): "the token is signed with \(algorithm.isEmpty ? "no algorithm" : algorithm), which this server does not accept"
        case .unknownKey: "the token is signed with a key the provider does not publish"
        case .badSignature: "the token's signature does not check out"
        case .unknownIssuer: "the token comes from another issuer"
        case .wrongAudience: "the token was issued to another client (wrong audience)"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet (its times are in the future)"
        case .missingSubject: "the token names no user (no sub)"
        case .providerRefused: "the identity provider no longer signs this user in"
        case .replayed: "this sign-in was used already"
        case .notInGroup(let group): "the user is not in the group \(group), whose members alone may sign in here"
        case .providerUnavailable(let why): "the identity provider could not be asked (\(why))"
        }
    }
}
