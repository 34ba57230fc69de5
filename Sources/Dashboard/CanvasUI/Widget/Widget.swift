import CanvasCore
import CanvasStyle

/// Whether a widget used an input or leaves it to the canvas.
public enum InputDisposition: Sendable {
    case handled, ignored
}

/// One micro-app in a pane. The canvas drives its lifecycle:
/// `mount` → (`resize` | `handle` | `receive` | `render`)* → `unmount`.
///
/// A widget never touches the terminal: it renders into a buffer the size of its pane's inside.
/// It never calls out either: what it wants done (events for the other widgets, requests for
/// what serves it) it returns as `WidgetEffects`, which the canvas carries out. What it reports in
/// `state` is saved with the layout and handed back to its factory on the next start.
/// Whatever a widget throws is shown in its own pane; the canvas and other panes carry on.
@MainActor
public protocol Widget {
    /// The widget's own commands (`todo.item.new` …), in the context `.widget(kind)`; its
    /// descriptor hands them to the canvas's command table.
    nonisolated static var commands: [Command] { get }
    /// The pane title, without its number.
    var title: String { get }
    /// Bus events the canvas delivers to `receive`.
    var subscriptions: [EventPattern] { get }
    /// True while a text field has focus, so plain keys such as `q` and `?` go to the widget.
    var capturesText: Bool { get }
    /// What to persist with the layout (selected day, scroll position, filters).
    var state: WidgetValues { get }
    /// The widget's settings as stored with the pane.
    var config: WidgetValues { get }
    /// True while what it shows first is on its way (a list from the cache, an app's first
    /// view): the canvas measures how long each pane takes to show its content.
    var isWaitingForContent: Bool { get }
    /// The settings a user can change, with their current values.
    var settings: [WidgetSetting] { get }

    mutating func mount(_ context: WidgetContext) throws -> WidgetEffects
    mutating func unmount()
    /// The inside of the pane changed size.
    mutating func resize(to size: Size)
    /// The pane gained or lost the canvas focus (also told once after `mount` when it has it).
    mutating func focusChanged(to focused: Bool)
    /// The pane can no longer be seen (the terminal is too small for the canvas), or can again.
    mutating func visibilityChanged(to visible: Bool)
    /// Work the widget started outside the canvas (a micro-app's process) has news, after the
    /// widget's `context.notify` was called: take it.
    mutating func notified() throws -> WidgetEffects
    /// An input for the widget: while it `capturesText`, every key but those of commands that act
    /// over typing (Tab, Ctrl-P, Ctrl-Q …); otherwise keys that run no command (a list's arrows),
    /// and mouse presses and wheels in its pane.
    mutating func handle(_ input: InputEvent) throws -> InputResult
    /// Runs one of the widget's own commands (its descriptor's `commands`), from its key or
    /// from the palette.
    mutating func perform(_ command: CommandID) throws -> WidgetEffects
    mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects
    /// Sets one setting to the next of its choices.
    mutating func cycleSetting(_ key: String) throws
    /// Draws the pane's inside; `buffer` is exactly that size.
    func render(into buffer: inout Buffer, theme: Theme, focused: Bool)
    /// Whether it draws over its last drawing (`render(into:over:theme:focused:)`): the canvas
    /// then keeps the widget as it drew, which a widget that always draws whole is spared.
    var drawsOverItsLastDrawing: Bool { get }
    /// Draws only what differs from `drawn`, a copy of this widget (a value) as it was when its
    /// pane was last drawn, into
    /// `buffer`, which holds that drawing's cells (drawn at the same size, in the same theme and
    /// focus) and no cursor. Returns the rows it drew again, which the canvas then compares with
    /// the screen, or nil to be drawn whole by `render`: a key typed into a field costs the
    /// field's row, not the pane. The default draws whole.
    func render(into buffer: inout Buffer, over drawn: any Widget, theme: Theme, focused: Bool) -> Range<Int>?
}

extension Widget {
    public nonisolated static var commands: [Command] { [] }
    public var subscriptions: [EventPattern] { [] }
    public var capturesText: Bool { false }
    public var state: WidgetValues { [:] }
    public var config: WidgetValues { [:] }
    public var isWaitingForContent: Bool { false }
    public var settings: [WidgetSetting] { [] }
    public mutating func unmount() {}
    public mutating func resize(to size: Size) {}
    public mutating func focusChanged(to focused: Bool) {}
    public mutating func visibilityChanged(to visible: Bool) {}
    public mutating func mount(_ context: WidgetContext) throws -> WidgetEffects { .none }
    public mutating func notified() throws -> WidgetEffects { .none }
    public mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects { .none }
    public mutating func cycleSetting(_ key: String) throws {}
    public mutating func perform(_ command: CommandID) throws -> WidgetEffects { .none }
    public var drawsOverItsLastDrawing: Bool { false }
    public func render(into buffer: inout Buffer, over drawn: any Widget, theme: Theme, focused: Bool) -> Range<Int>? { nil }
}
