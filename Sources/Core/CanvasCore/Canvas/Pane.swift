/// Free-form settings or saved state of a widget, kept as strings so layout files stay editable.
public typealias WidgetValues = [String: String]

/// One pane of the canvas: which micro-app it hosts and where it sits, in grid units.
public struct Pane: Hashable, Sendable, Codable, Identifiable {
    public var id: PaneID
    public var app: AppKind
    /// Position and size in grid units.
    public var frame: Rect
    /// User settings of the widget (persisted with the layout).
    public var config: WidgetValues
    /// State the widget reports to persist, such as the selected day or a scroll position.
    public var state: WidgetValues

    public init(id: PaneID, app: AppKind, frame: Rect, config: WidgetValues = [:], state: WidgetValues = [:]) {
        self.id = id
        self.app = app
        self.frame = frame
        self.config = config
        self.state = state
    }
}
