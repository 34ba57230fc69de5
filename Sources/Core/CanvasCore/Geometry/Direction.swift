/// One of the four directions on a grid; `y` grows downwards.
public enum Direction: String, CaseIterable, Sendable, Codable {
    case left, right, up, down

    /// The unit step of this direction.
    public var unit: Point {
        switch self {
        case .left: Point(x: -1, y: 0)
        case .right: Point(x: 1, y: 0)
        case .up: Point(x: 0, y: -1)
        case .down: Point(x: 0, y: 1)
        }
    }

    public var isHorizontal: Bool { self == .left || self == .right }
}
