import CanvasCore

/// What the host asks of the world outside the canvas, as a value: `CanvasHost.update` returns
/// these, `CanvasHost.perform` sends each to one place — `HostIO` (the library, the generator),
/// the server apps' sync engine, the shared canvas's link — and what they answer comes back as
/// `HostMessage`s in the mailbox.
public enum HostEffect: Sendable {
    /// A read of the layout library; its answer arrives as a message.
    case read(LibraryRead)
    /// A write to the library, after every write and read asked for before it.
    case write(LibraryWrite)
    case generator(GeneratorRequest)
    /// A widget's request to the server apps' sync engine (`HostPorts.widgetRequests`).
    case widgetRequest(any WidgetRequest)
    /// A request to the server about the shared canvas open (`HostPorts.sharedCanvasRequests`).
    case shared(SharedCanvasRequest)
    /// Installs what the catalog offers (`HostPorts.installApp`); the outcome comes back as
    /// `HostMessage.appInstalled`, or a notice.
    case install(CatalogOffer)
    /// Alerts the user to what the message line now says, wherever they look (`HostPorts.alert`).
    case alert(String)
}

public enum LibraryRead: Sendable, Equatable {
    /// Every layout (`layoutsListed`), for the picker.
    case summaries
    /// The layouts' and themes' names (`namesListed`), for the palette.
    case names
    case themeNames
    /// A theme to preview (`themeLoaded`) or to use and keep (`themeChosen`).
    case theme(String, keep: Bool)
    /// A layout's undo history (`historyLoaded`), read after the start.
    case history(layout: String)
    /// A layout to replace the canvas with (`layoutLoaded`, or `sharedLayoutLoaded` for a
    /// shared canvas's copy).
    case layout(String)
    /// The preset as its file has it (`layoutLoaded`), the layout kept under its name moved aside.
    case restorePreset(String)
}

public enum LibraryWrite: Sendable, Equatable {
    /// An arrangement step (move, add, …), with the layout before it, for the history.
    case step(String, layout: LayoutData, before: LayoutData)
    case undo(LayoutData)
    case redo(LayoutData)
    /// A save under the layout's name; `continuingHistoryOf` another name (a save as) takes
    /// that one's history along. `announce` says `Saved as NAME` once it is saved.
    case save(LayoutData, continuingHistoryOf: String?, announce: Bool)
    /// The save that quitting waits for; its outcome arrives as `quitSaved`.
    case saveOnQuit(LayoutData)
    case delete(String)
    case rename(String, to: String)
    case rememberTheme(String)
    /// How long this start took to show the canvas and each pane.
    case loadTimes(LoadTimes)
    /// Keeps the shared canvas's copy as it stands, unanswered edits included.
    case keepShared(SharedCanvasCopy)
}

/// What the host asks of the micro-app generator ("New micro-app…"). `run` names the box that
/// asked: its news (`appGeneration`) goes to every box open, and only that box takes it.
public enum GeneratorRequest: Sendable {
    /// What would stop writing an app now.
    case check(run: Int)
    /// Writes an app from a description; an earlier run still going is stopped first.
    case write(String, run: Int)
    /// Installs a reviewed app, as a write: quitting waits for it.
    case install(AppReview, run: Int)
    /// Stops the run going, if any.
    case stop
}
