import Foundation
import WebDAVXML

/// A calendar collection on a CalDAV server, as found in the user's calendar home.
struct RemoteCalendar: Sendable, Equatable {
    let url: URL
    let name: String
    /// `#RRGGBB` from Apple's `calendar-color` (which most servers keep), when it has one.
    let colour: String?
    /// The components it takes (`VEVENT`, `VTODO`); all of them when the server does not say.
    let components: Set<String>
    /// Whether it answers sync-collection reports (RFC 6578): it has a `sync-token`.
    let syncs: Bool
    let writable: Bool

    var holdsEvents: Bool { components.isEmpty || components.contains("VEVENT") }
    /// Whether it takes tasks: a task list, or a calendar of both (Nextcloud's, by default).
    var holdsTasks: Bool { components.contains("VTODO") }
}

/// Finding the user's calendars from the address they gave (RFC 4791 section 7, RFC 6764): the
/// address's `current-user-principal`, else `/.well-known/caldav`'s; the principal's
/// `calendar-home-set`; the home's members that are calendars.
extension CalDAVClient {
    func discover(_ given: URL) async throws(CalDAVProblem) -> (home: URL, calendars: [RemoteCalendar]) {
        let principal = try await principal(from: given)
        let (found, base) = try await multistatus("PROPFIND", principal, depth: "0", body: DAVBody.calendarHome)
        let homeHref = found.responses.first?.property(DAVElement.calDAV, "calendar-home-set")?.child(DAVElement.dav, "href")?.value
        guard let homeHref, let home = Self.url(homeHref, in: base, sameOrigin: false) else {
            throw CalDAVProblem("\(principal.host ?? "the server") names no calendar home for you: is it a CalDAV server?")
        }
        return (home, try await calendars(in: home))
    }

    /// The calendars in `home`.
    func calendars(in home: URL) async throws(CalDAVProblem) -> [RemoteCalendar] {
        let (listing, base) = try await multistatus("PROPFIND", home, depth: "1", body: DAVBody.calendars)
        return listing.responses.compactMap { response in
            guard response.property(DAVElement.dav, "resourcetype")?.child(DAVElement.calDAV, "calendar") != nil,
                  let url = Self.url(response.href, in: base, sameOrigin: true) else { return nil }
            let components = Set(response.property(DAVElement.calDAV, "supported-calendar-component-set")?
                .children(DAVElement.calDAV, "comp").map { $0.text.uppercased() } ?? [])
            let privileges = response.property(DAVElement.dav, "current-user-privilege-set")?.children(DAVElement.dav, "privilege")
                .flatMap(\.children).map(\.name)
            let writable = privileges.map { names in names.contains { ["write", "write-content", "all"].contains($0) } } ?? true
            let name = response.property(DAVElement.dav, "displayname")?.value.nonEmpty ?? url.lastPathComponent
            return RemoteCalendar(url: url, name: String(name.prefix(100)), colour: Self.colour(response.property(DAVElement.apple, "calendar-color")?.value),
                                  components: components, syncs: response.property(DAVElement.dav, "sync-token") != nil, writable: writable)
        }
    }

    private func principal(from given: URL) async throws(CalDAVProblem) -> URL {
        var tried: [URL] = [given]
        if let wellKnown = URL(string: "/.well-known/caldav", relativeTo: given)?.absoluteURL, wellKnown != given { tried.append(wellKnown) }
        var last: CalDAVProblem?
        for url in tried {
            do {
                let (found, base) = try await multistatus("PROPFIND", url, depth: "0", body: DAVBody.currentUserPrincipal)
                if let href = found.responses.first?.property(DAVElement.dav, "current-user-principal")?.child(DAVElement.dav, "href")?.value,
                   let principal = Self.url(href, in: base, sameOrigin: false) {
                    return principal
                }
            } catch {
                // Wrong credentials are said at once; anything else, the well-known address may mend.
                if error.status == 401 { throw error }
                last = error
            }
        }
        throw last ?? CalDAVProblem("\(given.host ?? "the server") did not say who you are there: is the address a CalDAV server's?")
    }

    /// An href of an answer as a URL: on the answering server's origin when `sameOrigin` (a
    /// member of a collection); another origin (a principal or home elsewhere, as iCloud's) only
    /// over https; never from https to http.
    static func url(_ href: String, in base: URL, sameOrigin: Bool) -> URL? {
        guard let url = URL(string: href, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased(),
              scheme == "https" || (scheme == "http" && base.scheme?.lowercased() == "http") else { return nil }
        if !Self.sameOrigin(url, base), sameOrigin || scheme != "https" { return nil }
        return url
    }

    /// `#RRGGBB` of Apple's `#RRGGBBAA` or `#RRGGBB`.
    static func colour(_ value: String?) -> String? {
        guard let value, value.count == 7 || value.count == 9 else { return nil }
        let colour = String(value.prefix(7)).lowercased()
        return colour.dropFirst().allSatisfy(\.isHexDigit) && colour.hasPrefix("#") ? colour : nil
    }
}
