/// How a cell looks: foreground, background and attributes.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: TextAttributes

    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = Style()

    public func adding(_ extra: TextAttributes) -> Style {
        Style(foreground: foreground, background: background, attributes: attributes.union(extra))
    }
}
