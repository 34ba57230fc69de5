/// Identifies a pane within a layout; numbers are never reused within one canvas session.
public struct PaneID: Hashable, Comparable, Sendable, Codable, RawRepresentable,
    ExpressibleByIntegerLiteral, CustomStringConvertible
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ value: Int) { self.rawValue = value }
    public init(integerLiteral value: Int) { self.rawValue = value }

    public static func < (lhs: PaneID, rhs: PaneID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}
