import CanvasCore

/// A pane's live widget and the error it failed with, if any.
@MainActor
struct MountedWidget {
    /// The pane's app.
    let kind: AppKind
    /// Tells this mount from earlier ones of the same pane.
    var mount = 0
    /// `nil` when the pane's app kind is not in the catalog.
    var widget: (any Widget)? {
        didSet { drawn = nil }  // every call into the widget may change what it draws
    }
    var failure: String? {
        didSet { drawn = nil }
    }
    /// The pane's inside as last drawn, while nothing it depends on changed, so that a frame
    /// redraws only the panes that changed (a key changes only the focused one).
    var drawn: DrawnContent?
    /// The inside size the widget was last told about.
    var contentSize: Size = .zero
    /// Whether the widget was last told it has the focus.
    var toldFocused = false
    /// Whether the widget was last told it can be seen.
    var toldVisible = true
    /// When the pane was mounted, until a frame showing its content is on the screen.
    var loading: ContinuousClock.Instant? = .now
}

/// A pane's drawn inside and what it was drawn for; the host forgets every one when the theme
/// or the day changes.
struct DrawnContent {
    let buffer: Buffer
    let focused: Bool
    /// Its number among the insides drawn (`ComposedFrame.insidesDrawn`).
    let number: Int
}

/// A mounted widget that listens to events, and what it listens to (as it said when mounted or
/// when a setting changed).
struct EventListener {
    let pane: PaneID
    let mount: Int
    var patterns: [EventPattern]
}
