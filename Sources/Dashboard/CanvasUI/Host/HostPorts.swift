import CanvasCore

/// What the host is connected to outside the canvas, given once when it is made: where the
/// effects it does not hand to `HostIO` go, what it may ask for, and who hears what it does.
/// What is left out leaves its part out (tests, `termcanvas render`).
@MainActor
public struct HostPorts {
    /// Where widgets' requests go (the server apps' sync engine).
    public var widgetRequests: @MainActor (any WidgetRequest) -> Void
    /// Where requests about shared canvases go (the dashboard's link to its server); nil without
    /// a server.
    public var sharedCanvasRequests: (@MainActor (SharedCanvasRequest) -> Void)?
    /// Whether "save as" stores the layout on the server (the dashboard runs with `--bff`) rather
    /// than on this machine.
    public var savesOnServer: Bool
    /// Writes micro-apps from a description ("New micro-app…"); nil leaves the entry out.
    public var appGenerator: (any AppGenerating)?
    /// What makes the catalog again when the server's registry is read; nil keeps it as started.
    public var catalogSource: (any CatalogSource)?
    /// Told, before every call into a widget and every draw of a pane, which app's pane it is
    /// and what is being done, so that a crash can say (the dashboard's `RunMark`).
    public var willCallWidget: ((_ app: AppKind, _ doing: StaticString) -> Void)?
    /// Installs what the catalog offers, away from the main actor; its outcome comes back as
    /// `HostMessage.appInstalled`, or a notice. Nil when nothing is offered.
    public var installApp: (@MainActor (CatalogOffer) -> Void)?
    /// Alerts the user (the terminal's bell, or its notification) to an urgent event, whose
    /// words the message line shows. Nil: the message line alone.
    public var alert: (@MainActor (String) -> Void)?

    public init(widgetRequests: @escaping @MainActor (any WidgetRequest) -> Void = { _ in },
                sharedCanvasRequests: (@MainActor (SharedCanvasRequest) -> Void)? = nil, savesOnServer: Bool = false,
                appGenerator: (any AppGenerating)? = nil, catalogSource: (any CatalogSource)? = nil,
                willCallWidget: ((_ app: AppKind, _ doing: StaticString) -> Void)? = nil, installApp: (@MainActor (CatalogOffer) -> Void)? = nil,
                alert: (@MainActor (String) -> Void)? = nil) {
        self.widgetRequests = widgetRequests
        self.sharedCanvasRequests = sharedCanvasRequests
        self.savesOnServer = savesOnServer
        self.appGenerator = appGenerator
        self.catalogSource = catalogSource
        self.willCallWidget = willCallWidget
        self.installApp = installApp
        self.alert = alert
    }
}
