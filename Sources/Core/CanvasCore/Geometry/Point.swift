/// A position on a grid of integer units: terminal cells or layout grid units.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// The point one step away in `direction`, `distance` units far.
    public func moved(_ direction: Direction, by distance: Int = 1) -> Point {
        let step = direction.unit
        return Point(x: x + step.x * distance, y: y + step.y * distance)
    }

    public var description: String { "(\(x),\(y))" }
}
