import CanvasCore

/// A kind of widget the canvas can create: what the `a` catalog lists.
public struct WidgetDescriptor: Sendable {
    public let kind: AppKind
    public let name: String
    public let summary: String
    public let version: String
    /// The widget's own commands (`todo.item.new` …), in the context `.widget(kind)`.
    public let commands: [Command]
    /// The least inside of its pane, in cells, that it can be drawn in (a micro-app's `minSize`);
    /// a pane added from the catalog is placed with at least this.
    public let minimumSize: Size?
    /// A micro-app added without a build: its pane also takes the `.microApp` commands.
    public let isMicroApp: Bool
    /// Creates the widget from its pane's saved config and state.
    public let make: @MainActor @Sendable (_ config: WidgetValues, _ state: WidgetValues) -> any Widget

    public init(
        kind: AppKind, name: String, summary: String, version: String, commands: [Command] = [], minimumSize: Size? = nil,
        isMicroApp: Bool = false, make: @escaping @MainActor @Sendable (_ config: WidgetValues, _ state: WidgetValues) -> any Widget
    ) {
        self.kind = kind
        self.isMicroApp = isMicroApp
        self.minimumSize = minimumSize
        self.name = name
        self.summary = summary
        self.version = version
        self.commands = commands
        self.make = make
    }
}

/// A kind the catalog lists that is not on this machine yet (a registry's package): chosen, it is
/// installed first (`HostPorts.installApp`), then added. Its summary says what it asks for.
public struct CatalogOffer: Sendable, Equatable {
    public let kind: AppKind
    public let name: String
    public let summary: String
    public let version: String
    /// Why it is suggested (`on 2 canvases shared with you`); nil for one that is only offered.
    public let suggested: String?
    /// Where it comes from (`team.example:7450`), when the catalog merges several: an id two of
    /// them offer is shown `REGISTRY/ID`.
    public let registry: String?

    public init(kind: AppKind, name: String, summary: String, version: String, suggested: String? = nil, registry: String? = nil) {
        self.kind = kind
        self.name = name
        self.summary = summary
        self.version = version
        self.suggested = suggested
        self.registry = registry
    }

    /// Its id as the catalog shows it: `ID`, or `REGISTRY/ID` where the id is offered twice.
    public var shownID: String { registry.map { "\($0)/\(kind.rawValue)" } ?? kind.rawValue }
}

/// The widget kinds the canvas can show: those the `a` catalog lists, in its order, and others
/// it still mounts where a layout has them (a micro-app the current server does not host); and
/// what it offers to install.
public struct WidgetCatalog: Sendable {
    public let descriptors: [WidgetDescriptor]
    private let unlisted: [WidgetDescriptor]
    /// Listed after the descriptors, the suggested ones first.
    public let offers: [CatalogOffer]

    public init(_ descriptors: [WidgetDescriptor], alsoMounting unlisted: [WidgetDescriptor] = [], offering offers: [CatalogOffer] = []) {
        self.descriptors = descriptors
        self.unlisted = unlisted
        self.offers = offers.filter { $0.suggested != nil } + offers.filter { $0.suggested == nil }
    }

    public func descriptor(for kind: AppKind) -> WidgetDescriptor? {
        descriptors.first { $0.kind == kind } ?? unlisted.first { $0.kind == kind }
    }

    /// Every kind it can mount, listed or not.
    public var all: [WidgetDescriptor] { descriptors + unlisted.filter { kind in !descriptors.contains { $0.kind == kind.kind } } }

    /// The catalog with `added` listed last, or in place of an entry of its kind.
    public func adding(_ added: [WidgetDescriptor]) -> WidgetCatalog {
        let kinds = Set(added.map(\.kind))
        return WidgetCatalog(descriptors.filter { !kinds.contains($0.kind) } + added, alsoMounting: unlisted,
                             offering: offers.filter { !kinds.contains($0.kind) })
    }

    public func adding(_ added: WidgetDescriptor) -> WidgetCatalog { adding([added]) }

    /// The catalog offering `offers` (in place of what it offered).
    public func offering(_ offers: [CatalogOffer]) -> WidgetCatalog {
        WidgetCatalog(descriptors, alsoMounting: unlisted, offering: offers)
    }
}

/// Where the catalog comes from after the start: what the bus carries (the server's registry,
/// as the sync engine read it). The host asks it of every event from outside, in its `update`,
/// before the event reaches the bus's listeners: no listener changes the host.
@MainActor
public protocol CatalogSource {
    /// The catalog `event` makes, with `added` (apps installed since the start) kept; nil when
    /// the event says nothing of the catalog.
    func catalog(after event: any BusEvent, keeping added: [WidgetDescriptor]) -> WidgetCatalog?
}
