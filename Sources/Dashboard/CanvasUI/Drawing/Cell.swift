import CanvasStyle

/// One terminal cell: a grapheme cluster and its style.
///
/// A wide character (CJK, most emoji) occupies its cell and the next one; the next one then
/// holds an empty symbol and is skipped when written to a terminal.
public struct Cell: Hashable, Sendable {
    public var symbol: String
    public var style: Style

    public init(_ symbol: String, style: Style = .plain) {
        self.symbol = symbol
        self.style = style
    }

    public static let blank = Cell(" ")

    /// True for the right half of a wide character.
    public var isContinuation: Bool { symbol.isEmpty }
}
