import CanvasCore
import CanvasStyle

/// A component over the canvas (help, palette, catalog, pickers, prompts): its own state, an
/// update that returns what it wants done, and its own render. The host sends keys and messages
/// to the overlay on top and applies the actions it returns.
@MainActor
public protocol Overlay {
    /// The status bar's badge while it is open; nil shows the mode underneath.
    var badge: String? { get }
    /// True while a text field of it has the keys: pasted text is typed into it.
    var capturesText: Bool { get }
    /// What it must say even on a terminal too small for the canvas (the screen then shows
    /// these lines instead, and the keys still reach it); nil for most.
    var tooSmallLines: [String]? { get }
    /// The status bar's hints while it is open.
    func hints(_ context: OverlayContext) -> [KeyHint]
    mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect]
    /// Results of work the host started (a list of layouts, a theme to preview, the generator's
    /// news); every box open hears them, the one on top first.
    mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect]
    func render(into buffer: inout Buffer, _ context: OverlayContext)
}

extension Overlay {
    public var badge: String? { nil }
    public var capturesText: Bool { false }
    public var tooSmallLines: [String]? { nil }
    public mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect] { [] }
}

/// What an overlay may read of the host.
@MainActor
public struct OverlayContext {
    /// The area panes share: overlays are centred in it.
    public let area: Rect
    public let theme: Theme
    public let commands: CommandTable
    /// The contexts whose commands apply under the overlay, most specific first (a widget's own
    /// only while it is not typing).
    public let contexts: [CommandContext]
    /// Commands of those contexts that would do nothing now (focus pane 7 of 3, settings of no pane).
    public let idle: Set<CommandID>
    public let layoutName: String
    public let catalog: WidgetCatalog
    /// The focused pane, its title and its widget's settings.
    public let focused: (id: PaneID, title: String, settings: [WidgetSetting])?
    public let recentCommands: [CommandID]
    /// Another box is over this one (the quit box over a box left open).
    public let covered: Bool
    /// Who has each shared canvas open, by canvas, as far as the server said.
    public var presence: [Int64: [String]] = [:]
}

/// What an overlay asks the host to do.
public enum OverlayEffect {
    /// Closes the overlay that asks.
    case close
    /// Runs a command as its key would, under the overlay.
    case run(CommandID)
    case notice(Notice)
    case addPane(AppKind, name: String)
    /// Installs what the catalog offers (`HostPorts.installApp`), then adds its pane.
    case installApp(CatalogOffer)
    case removePane(PaneID)
    case cycleSetting(PaneID, key: String)
    case saveLayout(as: String)
    case loadLayout(String)
    /// Opens the preset as its file has it (`HostState.restorePreset`).
    case restorePreset(String)
    case deleteLayout(String)
    case renameLayout(String, to: String)
    /// Lists the layouts again (into `layoutsListed`), e.g. after a rename.
    case listLayouts
    /// Loads a theme to show (`themeLoaded`), or to show and keep.
    case loadTheme(String, keep: Bool)
    /// Shows a theme (a preview) without keeping it.
    case showTheme(Theme)
    /// Remembers the theme on screen as the user's choice.
    case keepTheme
    /// After a failed save on quit: quits without saving.
    case quitWithoutSaving
    /// After a failed save on quit: back to the dashboard.
    case stay
    /// Writes a micro-app from this description (`HostMessage.appGeneration` of this run tells
    /// how it goes).
    case generateApp(String, run: Int)
    /// Installs the app written and reviewed.
    case installGeneratedApp(AppReview, run: Int)
    /// Forgets the generator's run: stops writing the app if it still is; nothing of it stays on disk.
    case discardGeneratedApp
    /// Adds the pane of an app just installed.
    case addInstalledApp(WidgetDescriptor)
}
