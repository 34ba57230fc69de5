import CanvasCore

/// A pane's live widget, its bus subscriptions, and the error it failed with, if any.
@MainActor
struct MountedWidget {
    /// The pane's app.
    let kind: AppKind
    /// Tells this mount from earlier ones of the same pane.
    var mount = 0
    /// `nil` when the pane's app kind is not in the catalog.
    var widget: (any Widget)?
    var subscriptions: [Subscription] = []
    var failure: String?
    /// The inside size the widget was last told about.
    var contentSize: Size = .zero
    /// Whether the widget was last told it has the focus.
    var toldFocused = false
    /// Whether the widget was last told it can be seen.
    var toldVisible = true
}
