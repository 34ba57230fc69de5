import CanvasCore

/// A kind of widget the canvas can create: what the `a` catalog lists.
public struct WidgetDescriptor: Sendable {
    public let kind: AppKind
    public let name: String
    public let summary: String
    public let version: String
    /// Creates the widget from its pane's saved config and state.
    public let make: @MainActor @Sendable (_ config: WidgetValues, _ state: WidgetValues) -> any Widget

    public init(
        kind: AppKind, name: String, summary: String, version: String,
        make: @escaping @MainActor @Sendable (_ config: WidgetValues, _ state: WidgetValues) -> any Widget
    ) {
        self.kind = kind
        self.name = name
        self.summary = summary
        self.version = version
        self.make = make
    }
}

/// The registered widget kinds, in the order the catalog shows them.
public struct WidgetCatalog: Sendable {
    public let descriptors: [WidgetDescriptor]

    public init(_ descriptors: [WidgetDescriptor]) {
        self.descriptors = descriptors
    }

    public func descriptor(for kind: AppKind) -> WidgetDescriptor? {
        descriptors.first { $0.kind == kind }
    }
}
