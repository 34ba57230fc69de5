/// A command's stable name, as key maps and the palette know it: `canvas.focus.next`,
/// `layout.save`, `todo.item.new`.
public struct CommandID: Hashable, Comparable, Sendable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
    public static func < (lhs: CommandID, rhs: CommandID) -> Bool { lhs.rawValue < rhs.rawValue }
}
