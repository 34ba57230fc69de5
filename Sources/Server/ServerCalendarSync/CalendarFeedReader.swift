import AsyncHTTPClient
import CalendarItems
import ICalendar
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServerAPI
import ServerProxy
import ServerStore
import SystemZones

/// Reads a subscription's file over HTTP, as the server may: through `EntryClient`, whose network
/// policy refuses what only the server can reach (a cloud's metadata service, the database, the
/// private network) and pins the address it checked, since the address is a user's, not an
/// admin's. A redirect is followed five times at most, each address checked again, never from
/// https down to plain http. `If-None-Match` and `If-Modified-Since` make an unchanged file a
/// 304; the answer must come within `CalendarCollectionLimits.fetchSeconds` and in
/// `feedBytes`; the file is read off the cooperative threads.
package struct CalendarFeedReader: Sendable {
    let entries: EntryClient
    let logger: Logger

    static let redirects = 5
    /// Validators longer than this are not kept (nor sent back).
    static let validatorBytes = 200

    package init(entries: EntryClient, logger: Logger) {
        self.entries = entries
        self.logger = logger
    }

    /// What a reading found.
    package enum Outcome: Sendable {
        case read(CalendarFeed, etag: String?, lastModified: String?)
        case unchanged
        case failed(SubscriptionProblem)
    }

    package func read(_ url: URL, etag: String? = nil, lastModified: String? = nil) async -> Outcome {
        var current = url
        for _ in 0...Self.redirects {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
            request.headers.add(name: "User-Agent", value: "TermCanvas")
            if let etag { request.headers.add(name: "If-None-Match", value: etag) }
            if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
            let answer: (response: HTTPClientResponse, body: ByteBuffer)
            do {
                answer = try await entries.call(request, to: current, timeout: .seconds(CalendarCollectionLimits.fetchSeconds),
                                                maximumBody: CalendarCollectionLimits.feedBytes, logger: logger)
            } catch {
                return .failed(Self.problem(error, reading: current))
            }
            let host = current.host ?? "the server"
            switch answer.response.status.code {
            case 200:
                return await Self.feed(answer.body, headers: answer.response.headers, from: host)
            case 304:
                return .unchanged
            case 301, 302, 303, 307, 308:
                guard let next = Self.redirect(answer.response.headers, from: current) else {
                    return .failed(SubscriptionProblem("\(host) sent the calendar elsewhere, to an address that is not https://"))
                }
                current = next
            case 401, 403:
                return .failed(SubscriptionProblem("\(host) asks for a sign-in (\(answer.response.status.code)); a subscription reads a public address"))
            case 404, 410:
                return .failed(SubscriptionProblem("\(host) has no calendar at this address (\(answer.response.status.code))"))
            case let code:
                return .failed(SubscriptionProblem("\(host) answered \(code) instead of the calendar; it is read again later"))
            }
        }
        return .failed(SubscriptionProblem("the address sent the calendar elsewhere more than \(Self.redirects) times"))
    }

    /// The calendar in a 200's body, or why it is none.
    private static func feed(_ body: ByteBuffer, headers: HTTPHeaders, from host: String) async -> Outcome {
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        let start = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.prefix(15).uppercased()
        guard start == "BEGIN:VCALENDAR" else {
            let type = headers.first(name: "Content-Type").map { " (it is \(Self.plain($0).prefix(60)))" } ?? ""
            return .failed(SubscriptionProblem("\(host) did not give an iCalendar file\(type)"))
        }
        let feed: CalendarFeed
        do {
            feed = try await offThePool { try CalendarFeed(text: text, zones: SystemZones.zone) }
        } catch let error as ICalError {
            return .failed(SubscriptionProblem("the file is not iCalendar: line \(error.line): \(error.message)"))
        } catch {
            return .failed(SubscriptionProblem("the file could not be read"))
        }
        guard feed.events.count <= CalendarCollectionLimits.eventsPerFeed else {
            return .failed(SubscriptionProblem("the calendar holds \(feed.events.count) events, more than the "
                                               + "\(CalendarCollectionLimits.eventsPerFeed) a subscription may"))
        }
        return .read(feed, etag: validator(headers.first(name: "ETag")), lastModified: validator(headers.first(name: "Last-Modified")))
    }

    /// Where a redirect goes: an http(s) address, and not plain http after https.
    private static func redirect(_ headers: HTTPHeaders, from current: URL) -> URL? {
        guard let location = headers.first(name: "Location"), let next = URL(string: location, relativeTo: current)?.absoluteURL,
              let scheme = next.scheme?.lowercased(), scheme == "https" || (scheme == "http" && current.scheme?.lowercased() == "http")
        else { return nil }
        return next
    }

    /// A validator to send back, if it is printable ASCII and short.
    private static func validator(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= validatorBytes, value.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else {
            return nil
        }
        return value
    }

    private static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { (0x20..<0x7F).contains($0.value) }))
    }

    /// Why a call failed, in our words.
    private static func problem(_ error: any Error, reading url: URL) -> SubscriptionProblem {
        SubscriptionProblem(CallFailure.words(error, host: url.host ?? "the server", seconds: CalendarCollectionLimits.fetchSeconds,
                                              maximumBytes: CalendarCollectionLimits.feedBytes))
    }
}
