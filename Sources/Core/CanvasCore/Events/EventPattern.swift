/// What a subscription listens to: one name, every name under a prefix (`calendar.*`), or all (`*`).
public enum EventPattern: Hashable, Sendable, CustomStringConvertible {
    case exact(EventName)
    /// Names starting with these dot-terminated segments, e.g. `calendar.` or `calendar.date.`.
    case prefix(String)
    case all

    /// Parses `*`, `source.*`, `source.entity.*` or a full name.
    public init?(_ text: String) {
        if text == "*" {
            self = .all
        } else if text.hasSuffix(".*") {
            let stem = text.dropLast(2)
            let segments = stem.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(segments.count), segments.allSatisfy(EventName.isSegment) else { return nil }
            self = .prefix(stem + ".")
        } else if let name = EventName(rawValue: text) {
            self = .exact(name)
        } else {
            return nil
        }
    }

    public func matches(_ name: EventName) -> Bool {
        switch self {
        case .exact(let exact): exact == name
        case .prefix(let prefix): name.rawValue.hasPrefix(prefix)
        case .all: true
        }
    }

    public var description: String {
        switch self {
        case .exact(let name): name.rawValue
        case .prefix(let prefix): prefix + "*"
        case .all: "*"
        }
    }
}
