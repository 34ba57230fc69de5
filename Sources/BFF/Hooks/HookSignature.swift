import Crypto
import Foundation
import HTTPTypes

/// The signature of a webhook: `X-Signature: sha256=HEX`, an HMAC-SHA256 with the app's hook
/// secret of `TIMESTAMP.BODY`, where `TIMESTAMP` is `X-Timestamp` (Unix seconds). Signing the
/// time makes an old request useless; the server also refuses a signature it has seen.
enum HookSignature {
    static let header = HTTPField.Name("X-Signature")!
    static let timestampHeader = HTTPField.Name("X-Timestamp")!
    /// How far a timestamp may be from the server's clock, either way.
    static let tolerance: TimeInterval = 300

    /// The `X-Signature` value for `body` sent at `timestamp`.
    static func sign(_ body: some DataProtocol, timestamp: String, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(timestamp.utf8) + Data(".".utf8) + Data(body), using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// Why the headers do not prove the app's secret signed `body` just now; nil when they do.
    static func problem(with body: some DataProtocol, signature: String?, timestamp: String?, secret: String, now: Date) -> String? {
        guard let timestamp, let seconds = Int64(timestamp) else { return "X-Timestamp must be the time in Unix seconds" }
        guard abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            return "X-Timestamp is more than \(Int(tolerance)) s from the server's clock"
        }
        guard let signature, signature.hasPrefix("sha256="), let code = hexBytes(signature.dropFirst(7)) else {
            return "X-Signature must be sha256= and the hex HMAC-SHA256 of TIMESTAMP.BODY"
        }
        let message = Data(timestamp.utf8) + Data(".".utf8) + Data(body)
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: Data(secret.utf8))) else {
            return "X-Signature does not match"
        }
        return nil
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        guard text.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
