import AppPackages
import Crypto
import Foundation
import HTTPTypes
import ServerStore

/// The signature of a webhook: `X-Signature: sha256=HEX`, an HMAC-SHA256 with the app's hook
/// secret of `TIMESTAMP.BODY`, where `TIMESTAMP` is `X-Timestamp` (Unix seconds). Signing the
/// time makes an old request useless; the server also refuses a signature it has seen.
enum HookSignature {
    static let header = HTTPField.Name("X-Signature")!
    static let timestampHeader = HTTPField.Name("X-Timestamp")!
    /// How far a timestamp may be from the server's clock, either way.
    static let tolerance = BFFStore.hookTimestampTolerance

    /// The `X-Signature` value for `body` sent at `timestamp`.
    static func sign(_ body: some DataProtocol, timestamp: String, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(timestamp.utf8) + Data(".".utf8) + Data(body), using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + Base16.encode(code)
    }

    /// What the headers prove: the MAC the app's secret made of `body` just now, as the key of
    /// its receipt (64 lowercase hex digits), or why they prove nothing.
    static func verify(_ body: some DataProtocol, signature: String?, timestamp: String?, secret: String,
                       now: Date) -> Result<String, HookSignatureProblem> {
        guard let timestamp, let seconds = Int64(timestamp) else { return .failure(.init("X-Timestamp must be the time in Unix seconds")) }
        guard abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            return .failure(.init("X-Timestamp is more than \(Int(tolerance)) s from the server's clock"))
        }
        guard let signature, signature.hasPrefix("sha256="), let code = hexBytes(signature.utf8.dropFirst(7)) else {
            return .failure(.init("X-Signature must be sha256= and 64 lowercase hex digits, the HMAC-SHA256 of TIMESTAMP.BODY"))
        }
        let message = Data(timestamp.utf8) + Data(".".utf8) + Data(body)
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: Data(secret.utf8))) else {
            return .failure(.init("X-Signature does not match"))
        }
        return .success(String(signature.dropFirst(7)))
    }

    /// Exactly 64 lowercase hex digits, and nothing else: no capitals, signs or spaces, so that a
    /// MAC has one spelling and a replay cannot pass as new by spelling it again.
    private static func hexBytes(_ text: Substring.UTF8View) -> [UInt8]? {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        let digits = Array(text)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = digit(digits[index]), let low = digit(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}

/// Why a webhook's headers prove nothing, in words for the sender.
struct HookSignatureProblem: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
