import FoundationEssentials

/// The user name a BFF token carries (its `name` claim), read without checking the signature:
/// the token is our own, and the name only tells the user's own chat messages from others'.
enum TokenName {
    static func of(_ token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1].map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let claims = try? JSONDecoder().decode(Claims.self, from: data) else { return nil }
        return claims.name
    }

    private struct Claims: Decodable {
        let name: String?
    }
}
