import Foundation

/// Checks an ID token as OpenID Connect Core §3.1.3.7 asks: the signature first, with one of
/// the provider's keys and an asymmetric algorithm the provider says it signs with (never `none`,
/// never HMAC, which would let anyone holding the public key sign), then the claims (`Claims`).
struct IDTokenVerifier: Sendable {
    let issuer: String
    let clientID: String
    let groupsClaim: String
    let skew: TimeInterval
    /// The algorithms accepted: the provider's, among the asymmetric ones.
    let algorithms: Set<String>
    let keys: ProviderKeys

    /// What may sign an ID token here, whatever the provider offers besides.
    static let asymmetric: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"]
    static let maxTokenBytes = 16 << 10

    private struct Header: Decodable {
        let alg: String
        let kid: String?
        /// Extensions the token says must be understood: none are, so a token naming any is refused.
        let crit: [String]?
    }

    func identity(of token: String, now: Date) async throws(SignInRefusal) -> Identity {
        guard token.utf8.count <= Self.maxTokenBytes else { throw .malformedToken }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Self.base64URL(parts[0]), let payload = Self.base64URL(parts[1]),
              Self.base64URL(parts[2]) != nil, let header = try? JSONDecoder().decode(Header.self, from: headerBytes), header.crit == nil
        else { throw .malformedToken }
        guard algorithms.contains(header.alg) else { throw .algorithmNotAllowed(header.alg) }
        try await keys.verify(token, algorithm: header.alg, kid: header.kid)
        return try Claims.decode(payload, groupsClaim: groupsClaim).identity(issuer: issuer, clientID: clientID, now: now, skew: skew)
    }

    /// The bytes of canonical base64url without padding (RFC 7515 §2); nil for anything else,
    /// padding and a last character whose unused bits are set included: each token has one
    /// spelling, so no second spelling of a spent one is new.
    static func base64URL(_ text: Substring) -> Data? {
        guard text.utf8.allSatisfy({ $0.isBase64URL }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              data.base64EncodedString().replacingOccurrences(of: "=", with: "") == base64.replacingOccurrences(of: "=", with: "")
        else { return nil }
        return data
    }

    /// What the provider signed (`header.payload`): a token signs in once whatever its signature's
    /// spelling, and an ECDSA signature's twin (s and n − s both verify) is the same sign-in.
    static func signedPart(of token: String) -> Substring {
        token.lastIndex(of: ".").map { token[..<$0] } ?? Substring(token)
    }
}

private extension UInt8 {
    var isBase64URL: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D || self == 0x5F
    }
}
