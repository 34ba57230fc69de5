import Foundation

/// The user name a BFF token carries (its `name` claim), read without checking the signature:
/// the token is our own, and the name only tells the user's own chat messages from others'.
enum TokenName {
    static func of(_ token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["name"] as? String
    }
}
