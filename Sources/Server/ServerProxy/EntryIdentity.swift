import Crypto
import Foundation
import HTTPTypes

/// Who is calling, as the server tells a remote app's entry: never the user's token, but their
/// name signed with the app's entry secret, so the entry can trust it, and the body with it, so
/// a call cannot be replayed with another message.
///
/// `X-TermCanvas-Signature: sha256=HEX`, the HMAC-SHA256 with the entry secret of
/// `TIMESTAMP.USER.METHOD PATH.BODY-SHA256` (the body's SHA-256 in hex, of no bytes when there is
/// no body): `1795426200.ann.POST /sessions/4f2a/messages.9f86d0…`.
enum EntryIdentity {
    static let user = HTTPField.Name("X-TermCanvas-User")!
    static let app = HTTPField.Name("X-TermCanvas-App")!
    static let timestamp = HTTPField.Name("X-TermCanvas-Timestamp")!
    static let signature = HTTPField.Name("X-TermCanvas-Signature")!
    /// The same signature with the entry secret before a rotation, while that is still valid: an
    /// entry not yet given the new secret checks this one.
    static let previousSignature = HTTPField.Name("X-TermCanvas-Signature-Previous")!

    /// The headers of one call to the entry.
    static func headers(user: String, app: String, method: String, path: String, body: some DataProtocol, secret: String,
                        previousSecret: String? = nil, now: Date = Date()) -> [(String, String)] {
        let stamp = String(Int(now.timeIntervalSince1970))
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        let message = Data("\(stamp).\(user).\(method) \(path).\(digest)".utf8)
        func sign(_ secret: String) -> String {
            "sha256=" + HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
                .map { String(format: "%02x", $0) }.joined()
        }
        return [
            (Self.user.rawName, user), (Self.app.rawName, app), (Self.timestamp.rawName, stamp), (Self.signature.rawName, sign(secret)),
        ] + (previousSecret.map { [(Self.previousSignature.rawName, sign($0))] } ?? [])
    }
}
