import Foundation
import JWTKit

/// The provider's signing keys (its JWKS), by key id, fetched once and again only for a key id
/// not among them, and then at most once per `refetchInterval`: a flood of tokens naming unknown
/// keys costs the provider one request per interval, however many there are. While a fetch is
/// under way, every token waits for that fetch rather than start its own.
actor ProviderKeys {
    private struct Key {
        let keys: JWTKeyCollection
        /// The algorithm the JWK is bound to, when it names one.
        let algorithm: String?
        let type: JWK.KeyType
    }

    private var keys: [String: Key] = [:]
    private var fetched: ContinuousClock.Instant?
    private var fetching: Task<Void, Never>?
    private let refetchInterval: Duration
    private let fetch: @Sendable () async throws -> JWKS

    init(refetchInterval: Duration, fetch: @escaping @Sendable () async throws -> JWKS) {
        self.refetchInterval = refetchInterval
        self.fetch = fetch
    }

    /// Whether the token's signature is the provider's, with `algorithm` (already allowed by the
    /// caller) and the key named `kid` (or the provider's only key when the token names none).
    func verify(_ token: String, algorithm: String, kid: String?) async throws(SignInRefusal) {
        if lookUp(kid) == nil { await refresh() }
        guard let key = lookUp(kid) else { throw .unknownKey }
        guard key.algorithm.map({ $0 == algorithm }) ?? true, Self.fits(algorithm, key.type) else { throw .algorithmNotAllowed(algorithm) }
        do {
            _ = try await key.keys.verify(token, as: SignedOnly.self)
        } catch {
            throw .badSignature
        }
    }

    private func lookUp(_ kid: String?) -> Key? {
        if let kid { return keys[kid] }
        return keys.count == 1 ? keys.values.first : nil
    }

    /// Fetches the keys when none were fetched within `refetchInterval`, or waits for the fetch
    /// under way. A failed fetch keeps the keys known.
    private func refresh() async {
        if let fetching { return await fetching.value }
        if let fetched, fetched.duration(to: .now) < refetchInterval { return }
        fetched = .now
        let task = Task { await load() }
        fetching = task
        await task.value
        fetching = nil
    }

    private func load() async {
        guard let jwks = try? await fetch() else { return }
        var found: [String: Key] = [:]
        for jwk in jwks.keys where jwk.keyType == .rsa || jwk.keyType == .ecdsa {
            guard let kid = jwk.keyIdentifier?.string, let collection = try? await JWTKeyCollection().add(jwk: jwk) else { continue }
            found[kid] = Key(keys: collection, algorithm: jwk.algorithm?.rawValue, type: jwk.keyType)
        }
        keys = found
    }

    /// RSA keys sign RS* and PS*, EC keys ES*: an algorithm of another family is never tried.
    private static func fits(_ algorithm: String, _ type: JWK.KeyType) -> Bool {
        type == .rsa ? algorithm.hasPrefix("RS") || algorithm.hasPrefix("PS") : algorithm.hasPrefix("ES")
    }

    /// The signature is all jwt-kit checks; the claims are read apart (`Claims`).
    private struct SignedOnly: JWTPayload {
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
