import Foundation
import WebDAVXML

/// A `207 Multi-Status` answer (RFC 4918 section 13): each resource's href, its own status when
/// it has one (a member gone from a sync-collection report is `404`), and the properties found
/// (those of its `200` propstats); and the collection's new sync token (RFC 6578).
struct DAVMultistatus: Sendable {
    struct Response: Sendable {
        let href: String
        let status: Int?
        let properties: [DAVElement]

        func property(_ namespace: String, _ name: String) -> DAVElement? {
            properties.first { $0.namespace == namespace && $0.name == name }
        }

        /// `getetag`'s value, its quotes kept (it is sent back as it came).
        var etag: String? { property(DAVElement.dav, "getetag")?.value.nonEmpty }
    }

    let responses: [Response]
    let syncToken: String?

    init?(_ root: DAVElement) {
        guard root.namespace == DAVElement.dav, root.name == "multistatus" else { return nil }
        responses = root.children(DAVElement.dav, "response").compactMap { response in
            guard let href = response.child(DAVElement.dav, "href")?.value.nonEmpty else { return nil }
            let found = response.children(DAVElement.dav, "propstat").filter { Self.status(of: $0) == 200 }
            return Response(href: href, status: Self.status(of: response),
                            properties: found.flatMap { $0.child(DAVElement.dav, "prop")?.children ?? [] })
        }
        syncToken = root.child(DAVElement.dav, "sync-token")?.value.nonEmpty
    }

    /// The code of an element's `<status>HTTP/1.1 200 OK</status>`.
    private static func status(of element: DAVElement) -> Int? {
        guard let line = element.child(DAVElement.dav, "status")?.value else { return nil }
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// The bodies of the requests the sync sends.
enum DAVBody {
    static let currentUserPrincipal = """
        <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>
        """
    static let calendarHome = """
        <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><c:calendar-home-set/></d:prop></d:propfind>
        """
    static let calendars = """
        <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" \
        xmlns:a="http://apple.com/ns/ical/"><d:prop><d:resourcetype/><d:displayname/><c:supported-calendar-component-set/>\
        <a:calendar-color/><d:sync-token/><d:current-user-privilege-set/></d:prop></d:propfind>
        """
    static let etags = """
        <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>
        """

    static func syncCollection(token: String?) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escaped(token ?? ""))</d:sync-token>\
        <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
        """
    }

    static func multiget(_ hrefs: [String]) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
        <d:prop><d:getetag/><c:calendar-data/></d:prop>\(hrefs.map { "<d:href>\(escaped($0))</d:href>" }.joined())</c:calendar-multiget>
        """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
