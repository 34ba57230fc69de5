import Foundation

/// Who the provider says signed in: from an ID token whose checks passed, or from the userinfo
/// endpoint for an access token.
package struct Identity: Sendable, Equatable {
    package var issuer: String
    /// The provider's id for the user: stable, never reassigned (unlike an e-mail address).
    package var subject: String
    package var preferredUsername: String?
    package var email: String?
    package var groups: [String]

    package init(issuer: String, subject: String, preferredUsername: String? = nil, email: String? = nil, groups: [String] = []) {
        self.issuer = issuer
        self.subject = subject
        self.preferredUsername = preferredUsername
        self.email = email
        self.groups = groups
    }
}

/// The claims of an ID token or a userinfo answer that the server reads; the rest are ignored.
/// Numbers are read as doubles and checked finite: a token's `exp` of 1e400 or -0 is refused, not
/// converted. Strings are bounded: a claim longer than `maxClaimBytes` is refused.
struct Claims: Decodable {
    var iss: String?
    var sub: String?
    var aud: [String]
    var azp: String?
    var exp: Double?
    var iat: Double?
    var nbf: Double?
    var preferredUsername: String?
    var email: String?
    var groups: [String]

    static let maxClaimBytes = 1024
    static let maxGroups = 256
    /// The decoder's `userInfo` key naming the groups claim.
    static let groupsClaimKey = CodingUserInfoKey(rawValue: "groupsClaim")!

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func text(_ name: String) throws -> String? {
            guard let value = try? container.decodeIfPresent(String.self, forKey: Key(name)) else {
                if container.contains(Key(name)), try !container.decodeNil(forKey: Key(name)) { throw Self.malformed(name) }
                return nil
            }
            guard value.utf8.count <= Self.maxClaimBytes else { throw Self.malformed(name) }
            return value
        }
        func time(_ name: String) throws -> Double? {
            guard container.contains(Key(name)) else { return nil }
            guard let value = try? container.decode(Double.self, forKey: Key(name)), value.isFinite, value >= 0, value < 1e11 else {
                throw Self.malformed(name)
            }
            return value
        }
        func texts(_ name: String) throws -> [String] {
            guard container.contains(Key(name)), try !container.decodeNil(forKey: Key(name)) else { return [] }
            if let one = try? container.decode(String.self, forKey: Key(name)) { return [one] }
            guard let many = try? container.decode([String].self, forKey: Key(name)), many.count <= Self.maxGroups,
                  many.allSatisfy({ $0.utf8.count <= Self.maxClaimBytes })
            else { throw Self.malformed(name) }
            return many
        }
        iss = try text("iss")
        sub = try text("sub")
        aud = try texts("aud")
        azp = try text("azp")
        exp = try time("exp")
        iat = try time("iat")
        nbf = try time("nbf")
        preferredUsername = try text("preferred_username")
        email = try text("email")
        groups = try texts(decoder.userInfo[Self.groupsClaimKey] as? String ?? "groups")
    }

    private static func malformed(_ name: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [Key(name)], debugDescription: "claim \(name) is not what it should be"))
    }

    static func decode(_ json: some DataProtocol, groupsClaim: String) throws(SignInRefusal) -> Claims {
        let decoder = JSONDecoder()
        decoder.userInfo[groupsClaimKey] = groupsClaim
        do { return try decoder.decode(Claims.self, from: Data(json)) } catch { throw .malformedToken }
    }

    /// The checks OpenID Connect Core §3.1.3.7 asks of an ID token once its signature is good:
    /// the issuer exactly, this client among the audiences (and as `azp` when one is named), not
    /// expired, not issued or valid only in the future; `skew` allows for the provider's clock.
    func identity(issuer: String, clientID: String, now: Date, skew: TimeInterval) throws(SignInRefusal) -> Identity {
        guard iss == issuer else { throw .unknownIssuer }
        guard aud.contains(clientID), azp.map({ $0 == clientID }) ?? (aud.count == 1) else { throw .wrongAudience }
        let now = now.timeIntervalSince1970
        guard let exp, let iat else { throw .malformedToken }
        guard now < exp + skew else { throw .expired }
        guard iat <= now + skew, (nbf ?? 0) <= now + skew else { throw .notYetValid }
        return try userIdentity(issuer: issuer)
    }

    /// The user these claims name (a userinfo answer's checks are its endpoint's: the provider's
    /// own address, asked with the token).
    func userIdentity(issuer: String) throws(SignInRefusal) -> Identity {
        guard let sub, !sub.isEmpty else { throw .missingSubject }
        return Identity(issuer: issuer, subject: sub, preferredUsername: preferredUsername, email: email, groups: groups)
    }
}
