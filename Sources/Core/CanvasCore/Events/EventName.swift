/// A canvas event name of the form `source.entity.action`, e.g. `calendar.date.selected`.
public struct EventName: Hashable, Sendable, Codable, RawRepresentable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    /// Accepts only well-formed names: three non-empty segments of lowercase letters, digits, `-` or `_`.
    public init?(rawValue: String) {
        let segments = rawValue.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, segments.allSatisfy(Self.isSegment) else {
            return nil
        }
        self.rawValue = rawValue
    }

    /// True for one well-formed segment of a name (also used for the stems of patterns).
    static func isSegment(_ segment: Substring) -> Bool {
        !segment.isEmpty && segment.allSatisfy(segmentCharacters.contains)
    }

    private static let segmentCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-_")

    /// For names written in code; a malformed literal is a programming error.
    public init(stringLiteral value: String) {
        guard let name = EventName(rawValue: value) else {
            preconditionFailure("event name '\(value)' is not source.entity.action")
        }
        self = name
    }

    /// The micro-app or part of the canvas that publishes it: `calendar` in `calendar.date.selected`.
    public var source: Substring { rawValue.prefix { $0 != "." } }

    public var description: String { rawValue }
}
