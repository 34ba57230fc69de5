import CanvasCore
import CanvasStyle

/// What the host handles (`CanvasHost.update`): the user's input, and the results of work it
/// started off the main actor, delivered back through the app loop.
public enum HostMessage: Sendable {
    /// The first message: mounts the widgets.
    case start(HostStart)
    /// A key, the mouse, a paste or a resize.
    case input(InputEvent)
    case layoutsListed([LayoutSummary])
    case layoutLoaded(LoadedLayout)
    /// A shared canvas's copy to open in place of the canvas.
    case sharedLayoutLoaded(SharedCanvasCopy)
    /// What the server said of the shared canvas `canvas` (nil for a layout it did not store).
    case shared(canvas: Int64?, SharedCanvasNews)
    case historyLoaded(layout: String, UndoHistory<LayoutData>)
    case themesListed([String])
    /// The layouts' and themes' names, for the palette.
    case namesListed(layouts: [String], themes: [String])
    /// A theme to preview in the theme picker.
    case themeLoaded(Theme)
    /// A theme chosen in the palette: used and remembered.
    case themeChosen(Theme)
    case saved(String)
    /// The save asked for by quitting finished: nil when it succeeded, else why it failed.
    case quitSaved(failure: String?)
    case notice(Notice)
    /// Events from outside the canvas (the server apps' sync engine) to publish on the bus.
    case publish([any BusEvent])
    /// A widget's outside work has news (see `WidgetContext.notify`); `mount` tells it from an
    /// earlier widget of the same pane.
    case widgetNotified(PaneID, mount: Int)
    /// News of the micro-app being written from a description ("New micro-app…"); `run` tells
    /// one run of the generator from the next.
    case appGeneration(run: Int, AppGenerationUpdate)
    /// Micro-apps installed again while the dashboard runs (`termcanvas apps add --replace`):
    /// the catalog takes them, and their panes start afresh, keeping their saved state.
    case appsReinstalled([WidgetDescriptor])
    /// An app the catalog offered is installed (`HostPorts.installApp`): the catalog takes it and a
    /// pane of it is added.
    case appInstalled(WidgetDescriptor)
    /// The frame composed last is on the screen (sent while `CanvasHost.isLoading`).
    case frameShown(at: ContinuousClock.Instant)
    /// Sent by `Mailbox.drawn`: released by the app loop once the messages before it are drawn.
    case drawn(DrawnSignal)
    /// The last message, as the dashboard closes: unmounts every widget and stops the generator
    /// (then `HostIO.generatorStopped`).
    case shutdown
}
