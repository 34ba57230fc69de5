import CanvasStyle

/// One terminal cell: what it draws and its style.
///
/// A wide character (CJK, most emoji) occupies its cell and the next one; the next one then
/// holds the empty glyph and is skipped when written to a terminal.
public struct Cell: Hashable, Sendable {
    public var glyph: Glyph
    public var style: Style

    public init(_ glyph: Glyph, style: Style = .plain) {
        self.glyph = glyph
        self.style = style
    }

    public init(_ symbol: String, style: Style = .plain) {
        self.init(Glyph(symbol), style: style)
    }

    public static let blank = Cell(.space)

    /// The glyph as text.
    public var symbol: String { glyph.string }

    /// True for the right half of a wide character.
    public var isContinuation: Bool { glyph.isEmpty }
}
