/// What `CanvasManager.addWidget` needs to place a new pane.
public struct NewPane: Hashable, Sendable {
    public var app: AppKind
    /// Where to put it, in grid units; `nil` finds free space or splits a pane.
    public var frame: Rect?
    public var config: WidgetValues
    public var state: WidgetValues

    public init(app: AppKind, frame: Rect? = nil, config: WidgetValues = [:], state: WidgetValues = [:]) {
        self.app = app
        self.frame = frame
        self.config = config
        self.state = state
    }
}
