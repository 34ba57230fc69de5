/// Text attributes of a cell.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1)
    public static let dim = TextAttributes(rawValue: 2)
    public static let italic = TextAttributes(rawValue: 4)
    public static let underline = TextAttributes(rawValue: 8)
    public static let reverse = TextAttributes(rawValue: 16)
}
