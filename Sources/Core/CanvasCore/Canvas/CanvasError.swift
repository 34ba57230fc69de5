/// Why an arrangement step or a layout was refused. The canvas is unchanged when one is thrown.
public enum CanvasError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidGrid(String)
    case unknownPane(PaneID)
    case invalidPaneID(Int)
    case duplicatePane(PaneID)
    case outOfGrid(PaneID?, Rect)
    case belowMinimumSize(PaneID?, minimum: Size)
    case overlap(PaneID, PaneID)
    /// The step would push `PaneID` below its minimum size.
    case neighbourAtMinimum(PaneID)
    case noRoom
    /// No room for a new pane of at least `minimum` grid units, its app's minimum size.
    case noRoomFor(minimum: Size)
    /// A shared canvas holds at most this many panes.
    case tooManyPanes(Int)
    /// A shared canvas's panes' settings and state take at most this many bytes together.
    case canvasFull(bytes: Int)

    public var description: String {
        switch self {
        case .invalidGrid(let reason): "invalid grid: \(reason)"
        case .unknownPane(let id): "no pane \(id)"
        case .invalidPaneID(let value): "pane id \(value) must be between 1 and \(Int32.max)"
        case .duplicatePane(let id): "pane id \(id) is used twice"
        case .outOfGrid(let id?, let frame): "pane \(id) at \(frame) lies outside the grid"
        case .outOfGrid(nil, let frame): "\(frame) lies outside the grid"
        case .belowMinimumSize(let id?, let minimum): "pane \(id) is smaller than the minimum \(minimum)"
        case .belowMinimumSize(nil, let minimum): "panes cannot be smaller than \(minimum)"
        case .overlap(let a, let b): "panes \(a) and \(b) overlap"
        case .neighbourAtMinimum(let id): "pane \(id) is already at its minimum size"
        case .noRoom: "no room for another pane: shrink or remove one first"
        case .noRoomFor(let minimum): "no room for a pane of its minimum size (\(minimum.width)×\(minimum.height) grid units): shrink or remove one first"
        case .tooManyPanes(let limit): "a shared canvas holds at most \(limit) panes"
        case .canvasFull(let bytes): "a shared canvas holds at most \(bytes >> 10) KiB of settings and state: clear a pane's first"
        }
    }
}
