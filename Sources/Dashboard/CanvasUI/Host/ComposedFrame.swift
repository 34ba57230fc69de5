import CanvasCore

/// The frame as last composed, kept between frames so that the next one redraws only what
/// changed: a pane whose box, title or inside changed, and the status bar when what it says
/// did. Everything is drawn again when the size, the panes' places, the theme or the day
/// changed, and while an overlay is shown or was (it covers panes it does not know).
struct ComposedFrame {
    var buffer = Buffer(size: .zero)
    /// What each pane shown was drawn for.
    var panes: [PaneID: PaneDrawing] = [:]
    /// What the status bar was drawn for.
    var statusBar: StatusBar?
    /// Whether the last frame had something over the panes: an overlay or the too-small message.
    var covered = false
    /// False when the next frame must be drawn whole (the theme or the day changed).
    var isCurrent = false
    /// Insides drawn so far: each drawn inside has its own number, so a pane whose inside was
    /// drawn again is told from one that was not without comparing cells.
    var insidesDrawn = 0
}

/// Everything a pane's cells depend on: two equal ones draw the same cells.
struct PaneDrawing: Equatable {
    let rect: Rect
    let focused: Bool
    let arranging: Bool
    let title: String
    /// In arrange mode, the focused pane's place and size on the grid, on its bottom border.
    let label: String?
    /// The drawn inside's number (`ComposedFrame.insidesDrawn`), nil for a pane with no inside.
    let inside: Int?
}

extension PaneDrawing {
    /// Whether `other` has the same box and title: then only the inside may differ.
    func hasSameBox(as other: PaneDrawing) -> Bool {
        rect == other.rect && focused == other.focused && arranging == other.arranging && title == other.title && label == other.label
    }
}
