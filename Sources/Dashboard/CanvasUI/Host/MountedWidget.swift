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
        didSet { drawn?.isCurrent = false }  // every call into the widget may change what it draws
    }
    var failure: String? {
        didSet { drawn = nil }
    }
    /// The pane's inside as last drawn, so that a frame redraws only the panes that changed (a
    /// key changes only the focused one), and a widget only what changed in its pane.
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

/// What widgets are told of their panes depends on (their sizes, the focus, which are shown):
/// two equal ones tell them the same.
struct PaneArrangement: Equatable {
    let size: Size
    let grid: GridSpec
    let panes: [PaneID]
    let frames: [Rect]
    let focused: PaneID?
    let zoomed: PaneID?
}

/// A pane's drawn inside and what it was drawn for; the host forgets every one when the theme
/// or the day changes.
struct DrawnContent {
    var buffer: Buffer
    let focused: Bool
    /// Its number among the insides drawn (`ComposedFrame.insidesDrawn`).
    let number: Int
    /// The widget as it drew it: the next drawing may start from this one.
    let widget: (any Widget)?
    /// When it was drawn over an earlier drawing: which rows it drew again.
    let redrawn: Redrawn?
    /// False once the widget was called since: the next frame draws it again.
    var isCurrent = true
}

/// Rows of a pane's inside drawn again over an earlier drawing, the rest kept from it.
struct Redrawn {
    let rows: Range<Int>
    /// The number of the drawing they were drawn over (`DrawnContent.number`).
    let overDrawingNumber: Int
}

/// A mounted widget that listens to events, and what it listens to (as it said when mounted or
/// when a setting changed).
struct EventListener {
    let pane: PaneID
    let mount: Int
    var patterns: [EventPattern]
}

extension Equatable {
    /// Sets this to `value`; true when that changed it. Called as `mounted[id]?.field.setIfChanged(_:)`
    /// the entry is changed in place, where reading `mounted[id]?.field` first would copy the
    /// whole entry (its widget and drawn inside) out of the dictionary: on every key, for every
    /// pane, that cost more than the rest of the step.
    mutating func setIfChanged(_ value: Self) -> Bool {
        guard self != value else { return false }
        self = value
        return true
    }
}
