import Foundation

/// The provider's discovery document (`ISSUER/.well-known/openid-configuration`), what of it the
/// server uses.
struct ProviderDocument: Decodable, Sendable {
    let issuer: String
    let jwksURI: URL
    let tokenEndpoint: URL
    let userinfoEndpoint: URL?
    let deviceAuthorizationEndpoint: URL?
    let signingAlgorithms: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case jwksURI = "jwks_uri"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case signingAlgorithms = "id_token_signing_alg_values_supported"
    }

    /// The algorithms accepted for ID tokens: the provider's asymmetric ones (RS256 when it names
    /// none, as the spec's default).
    var algorithms: Set<String> {
        Set(signingAlgorithms ?? ["RS256"]).intersection(IDTokenVerifier.asymmetric)
    }

    /// Why this document cannot be trusted for `issuer`, or nil: it must name the issuer exactly
    /// (OpenID Connect Discovery §4.3) and every endpoint must be https, or http on loopback only.
    func problem(for issuer: String) -> String? {
        guard self.issuer == issuer else { return "its discovery document names the issuer \(self.issuer), not \(issuer)" }
        for endpoint in [jwksURI, tokenEndpoint] + [userinfoEndpoint, deviceAuthorizationEndpoint].compactMap({ $0 }) {
            if let problem = ProviderAddress.problem(endpoint) { return problem }
        }
        return nil
    }
}

/// Where the server may reach its provider: https, or plain http on loopback only (a provider
/// on this machine, as tests run one).
enum ProviderAddress {
    static func problem(_ url: URL) -> String? {
        switch url.scheme?.lowercased() {
        case "https": return url.host.map { _ in nil } ?? "\(url.absoluteString) has no host"
        case "http" where ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host ?? ""): return nil
        default: return "\(url.absoluteString) is not https (plain http is allowed on loopback only)"
        }
    }
}
