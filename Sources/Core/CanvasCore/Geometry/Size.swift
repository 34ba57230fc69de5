/// A width and height in integer units: terminal cells or layout grid units.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var area: Int { max(0, width) * max(0, height) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when both dimensions are at least those of `other`.
    public func contains(_ other: Size) -> Bool {
        width >= other.width && height >= other.height
    }

    /// Parses `COLSxROWS`, as in `--size 120x40`.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)×\(height)" }
}
