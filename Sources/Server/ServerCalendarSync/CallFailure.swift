import AsyncHTTPClient
import NIOCore
import ServerProxy

/// Why a call of the server's to a calendar's address failed, in our words (never a library's):
/// refused by the network policy, too slow, too large, a secure connection that failed, or no
/// connection at all.
enum CallFailure {
    static func words(_ error: any Error, host: String, seconds: Int64, maximumBytes: Int) -> String {
        switch error {
        case let refused as EntryRefused:
            return "the server does not call \(host): \(refused.reason)"
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            return "\(host) did not answer within \(seconds) s"
        case is NIOTooManyBytesError:
            return "\(host) answered more than \(maximumBytes >> 20) MiB, the most read at once"
        default:
            let described = String(reflecting: error)
            return described.contains("SSL") || described.contains("TLS")
                ? "could not make a secure (https) connection to \(host): its certificate is not trusted, or it does not speak https"
                : "could not connect to \(host)"
        }
    }
}
