import AsyncHTTPClient
import Foundation
import WebDAVXML
import Logging
import NIOCore
import NIOHTTP1
import ServerProxy

/// The user's CalDAV server as the sync calls it: Basic authentication with their password (or
/// app password), over `EntryClient` and its network policy (the address is the user's), each
/// answer within `timeout` and `maximumAnswer` bytes. Redirects are followed three times at
/// most, each address checked, never from https to http; the password goes with a redirect only
/// on the same origin, as curl and browsers do, so a server cannot send it on to another. Errors
/// are `CalDAVProblem`s in our words; the password is in none of them, nor in a log.
struct CalDAVClient: Sendable {
    let entries: EntryClient
    let user: String
    let password: String
    let logger: Logger

    static let timeout = TimeAmount.seconds(30)
    static let maximumAnswer = 32 << 20
    static let redirects = 3

    struct Answer: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer
        /// The URL that answered, after redirects.
        let url: URL

        var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }
        var etag: String? { headers.first(name: "ETag") }
    }

    /// One request, its redirects followed.
    func send(_ method: String, _ url: URL, depth: String? = nil, body: String? = nil, contentType: String = "application/xml; charset=utf-8",
              headers extra: [(String, String)] = []) async throws(CalDAVProblem) -> Answer {
        var current = url
        var sendsPassword = true
        for _ in 0...Self.redirects {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.method = .RAW(value: method)
            if sendsPassword {
                request.headers.add(name: "Authorization", value: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
            }
            request.headers.add(name: "User-Agent", value: "TermCanvas")
            if let depth { request.headers.add(name: "Depth", value: depth) }
            if let body {
                request.headers.add(name: "Content-Type", value: contentType)
                request.body = .bytes(ByteBuffer(string: body))
            }
            for (name, value) in extra { request.headers.add(name: name, value: value) }
            let answer: (response: HTTPClientResponse, body: ByteBuffer)
            do {
                answer = try await entries.call(request, to: current, timeout: Self.timeout, maximumBody: Self.maximumAnswer, logger: logger)
            } catch {
                throw CalDAVProblem.unreachable(error, host: current.host ?? "the server")
            }
            let status = Int(answer.response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = answer.response.headers.first(name: "Location"),
               let next = URL(string: location, relativeTo: current)?.absoluteURL,
               next.scheme == "https" || (next.scheme == "http" && current.scheme == "http") {
                if !Self.sameOrigin(next, current) { sendsPassword = false }
                current = next
                continue
            }
            if status == 401, !sendsPassword {
                throw CalDAVProblem("\(url.host ?? "the server") sent us on to \(current.host ?? "another server"), which asks for a password: "
                                    + "we send yours only where you connected, so connect with the address there")
            }
            if status == 401 {
                throw CalDAVProblem("\(current.host ?? "the server") refused the user name and password (401): check them, or make an app password",
                                    status: 401)
            }
            return Answer(status: status, headers: answer.response.headers, body: answer.body, url: current)
        }
        throw CalDAVProblem("the server sent the request elsewhere more than \(Self.redirects) times")
    }

    /// Whether two URLs are of one origin: scheme, host and port.
    static func sameOrigin(_ one: URL, _ other: URL) -> Bool {
        one.scheme?.lowercased() == other.scheme?.lowercased() && one.host?.lowercased() == other.host?.lowercased() && one.port == other.port
    }

    /// A `PROPFIND` or `REPORT` whose answer must be a multistatus.
    func multistatus(_ method: String, _ url: URL, depth: String, body: String) async throws(CalDAVProblem) -> (DAVMultistatus, URL) {
        let answer = try await send(method, url, depth: depth, body: body)
        guard answer.status == 207 else {
            throw CalDAVProblem("\(url.host ?? "the server") answered \(answer.status) to \(method) \(url.path)", status: answer.status)
        }
        guard let root = DAVElement.parse(Data(answer.body.readableBytesView)), let multistatus = DAVMultistatus(root) else {
            throw CalDAVProblem("\(url.host ?? "the server")'s answer to \(method) is not WebDAV's XML")
        }
        return (multistatus, answer.url)
    }
}

/// Why talking to a CalDAV server failed, in our words; `status` when it answered one.
package struct CalDAVProblem: Error, Sendable, CustomStringConvertible {
    package let description: String
    package let status: Int?

    init(_ description: String, status: Int? = nil) {
        self.description = description
        self.status = status
    }

    static func unreachable(_ error: any Error, host: String) -> CalDAVProblem {
        CalDAVProblem(CallFailure.words(error, host: host, seconds: CalDAVClient.timeout.nanoseconds / 1_000_000_000,
                                        maximumBytes: CalDAVClient.maximumAnswer))
    }
}
