import Foundation
import ServerAPI

/// A subscription's address as the user gave it, made one the server reads: `webcal://` and
/// `webcals://` (as calendar sites publish them) become `https://`; only http and https are
/// read; the fragment is dropped. An address with a user name or password in it is refused: it
/// would be kept and shown in clear, and a calendar that needs a sign-in is not a subscription.
package enum SubscriptionAddress {
    /// The URL to read, or why `text` is not one.
    package static func url(_ text: String) -> Result<URL, SubscriptionProblem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= CalendarCollectionLimits.urlBytes else {
            return .failure(SubscriptionProblem("must be a URL of at most \(CalendarCollectionLimits.urlBytes) bytes"))
        }
        guard var components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            return .failure(SubscriptionProblem("is not a URL (it should look like https://example.org/calendar.ics)"))
        }
        switch scheme {
        case "webcal", "webcals", "https": components.scheme = "https"
        case "http": components.scheme = "http"
        default: return .failure(SubscriptionProblem("must be an https:// or webcal:// address, not \(scheme.prefix(20)):"))
        }
        guard components.user == nil, components.password == nil else {
            return .failure(SubscriptionProblem("must not hold a user name or password: a subscription reads a public address"))
        }
        guard let host = components.host, !host.isEmpty else { return .failure(SubscriptionProblem("has no host")) }
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        guard let url = components.url else { return .failure(SubscriptionProblem("is not a URL")) }
        return .success(url)
    }
}

/// Why a subscription could not be made or read, in our words (never a library's).
package struct SubscriptionProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
