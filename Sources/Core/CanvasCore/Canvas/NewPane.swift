/// What `CanvasManager.addWidget` needs to place a new pane.
public struct NewPane: Hashable, Sendable {
    public var app: AppKind
    /// Where to put it, in grid units; `nil` finds free space or splits a pane.
    public var frame: Rect?
    public var config: WidgetValues
    public var state: WidgetValues
    /// The least it may be given when placed for the caller, in grid units (an app's own minimum
    /// size, larger than the grid's); nil for the grid's.
    public var minimumSize: Size?

    public init(app: AppKind, frame: Rect? = nil, config: WidgetValues = [:], state: WidgetValues = [:], minimumSize: Size? = nil) {
        self.app = app
        self.frame = frame
        self.minimumSize = minimumSize
        self.config = config
        self.state = state
    }
}
