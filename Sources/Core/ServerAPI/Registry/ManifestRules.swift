import FoundationEssentials

/// The rules a micro-app's manifest follows wherever it is read: `app.yaml` on the dashboard and
/// a publish to a server's registry, so an app the dashboard accepts is one a server accepts.
/// Each rule is a predicate or a range; the reader words the error for its own format (a file's
/// line and column, or a request's field).
public enum ManifestRules {
    public static let appIDRule = "1 to 32 of a-z, 0-9 and -, starting with a letter"
    /// Characters (as users see them) of a name, on one line.
    public static let nameLength = 1...40
    public static let descriptionLength = 0...200
    /// Names in `events.publishes`, and patterns in `events.subscribes`, each.
    public static let maximumEvents = 32
    public static let maximumEventName = 96
    public static let maximumBackendPaths = 16
    public static let maximumBackendPath = 200
    public static let maximumEntry = 2048
    public static let widths = 1...500
    public static let heights = 1...200

    /// True for an app id: 1–32 of `a-z`, `0-9`, `-`, starting with a letter.
    public static func isAppID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first), id.unicodeScalars.count <= 32 else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// True for a name of one line: no control characters (C0, DEL, C1), not blank, in `nameLength`.
    public static func isName(_ name: String) -> Bool {
        TextLength.admits(name, characters: nameLength) && !name.allSatisfy(\.isWhitespace) && !name.unicodeScalars.contains(where: isControl)
    }

    /// True for a description of one line, in `descriptionLength`.
    public static func isDescription(_ description: String) -> Bool {
        TextLength.admits(description, characters: descriptionLength) && !description.unicodeScalars.contains(where: isControl)
    }

    /// True for an event name `source.entity.action`, each part of `a-z`, `0-9`, `-` and `_`.
    public static func isEventName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= maximumEventName && parts.count == 3 && parts.allSatisfy(isSegment)
    }

    /// True for an event app `id` may publish: an event name under its own id (`id.entity.action`),
    /// so no app speaks for another or for the canvas.
    public static func isOwnEventName(_ name: String, of id: String) -> Bool {
        isEventName(name) && name.hasPrefix("\(id).")
    }

    /// True for what an app subscribes with: `*`, `source.*`, `source.entity.*` or an event name.
    public static func isEventPattern(_ pattern: String) -> Bool {
        guard pattern != "*" else { return true }
        guard pattern.hasSuffix(".*") else { return isEventName(pattern) }
        let stem = pattern.dropLast(2).split(separator: ".", omittingEmptySubsequences: false)
        return pattern.utf8.count <= maximumEventName && (1...2).contains(stem.count) && stem.allSatisfy(isSegment)
    }

    /// True for a backend path an app may call: under `/api/`, printable ASCII without spaces,
    /// `?` or `..`, at most `maximumBackendPath` characters.
    public static func isBackendPath(_ path: String) -> Bool {
        path.utf8.count <= maximumBackendPath && path.hasPrefix("/api/") && !path.contains("..")
            && path.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "?") }
    }

    /// A remote app's entry: an `http` or `https` URL with a host and no credentials, query or
    /// fragment, at most `maximumEntry` characters; nil for anything else. (Which addresses a
    /// server calls is the server's own rule.) The host is looked at as written (`encodedHost`):
    /// decoding it (`host`) runs ICU's IDNA, ~1 MB of the dashboard's memory when it scans apps.
    public static func entry(_ text: String) -> URL? {
        guard text.utf8.count <= maximumEntry, let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.encodedHost?.isEmpty == false, components.user == nil, components.password == nil, components.query == nil,
              components.fragment == nil else { return nil }
        return components.url
    }

    private static func isSegment(_ part: Substring) -> Bool {
        !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
