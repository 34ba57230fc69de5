/// An axis-aligned rectangle with an integer origin and size. Operations return new values.
///
/// The rectangle covers the half-open ranges `minX..<maxX` and `minY..<maxY`.
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Int { origin.x }
    public var y: Int { origin.y }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var minX: Int { origin.x }
    public var minY: Int { origin.y }
    public var maxX: Int { origin.x + size.width }
    public var maxY: Int { origin.y + size.height }
    public var isEmpty: Bool { size.isEmpty }
    public var area: Int { size.area }

    /// Twice the centre, so that centres of odd-sized rectangles stay integers.
    var doubledCenter: Point { Point(x: minX + maxX, y: minY + maxY) }

    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    public func intersects(_ other: Rect) -> Bool {
        !intersection(other).isEmpty
    }

    /// The overlap of two rectangles; empty (zero size) when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), x1 = min(maxX, other.maxX)
        let y0 = max(minY, other.minY), y1 = min(maxY, other.maxY)
        guard x0 < x1, y0 < y1 else { return Rect(x: x0, y: y0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle shrunk by `margin` on every side (never negative).
    public func inset(by margin: Int) -> Rect {
        Rect(x: minX + margin, y: minY + margin,
             width: max(0, width - 2 * margin), height: max(0, height - 2 * margin))
    }

    public func offsetBy(_ delta: Point) -> Rect {
        Rect(origin: Point(x: minX + delta.x, y: minY + delta.y), size: size)
    }

    public func moved(to origin: Point) -> Rect { Rect(origin: origin, size: size) }

    public func resized(to size: Size) -> Rect { Rect(origin: origin, size: size) }

    public var description: String { "\(minX),\(minY) \(width)×\(height)" }
}
