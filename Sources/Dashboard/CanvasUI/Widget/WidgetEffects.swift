import CanvasCore

/// What a widget wants done after a call: events to publish on the bus (its pane is their
/// source) and requests for what serves it. Widgets return it instead of calling sinks, so a
/// widget is a value that tests check by what it returns.
public struct WidgetEffects: Sendable {
    public private(set) var events: [any BusEvent] = []
    public private(set) var requests: [any WidgetRequest] = []

    public init(events: [any BusEvent] = [], requests: [any WidgetRequest] = []) {
        self.events = events
        self.requests = requests
    }

    public static let none = WidgetEffects()

    public mutating func publish(_ event: any BusEvent) { events.append(event) }
    public mutating func request(_ request: any WidgetRequest) { requests.append(request) }

    /// These effects, then `later`'s.
    public mutating func append(_ later: WidgetEffects) {
        events += later.events
        requests += later.requests
    }
}

/// A widget's answer to an input: whether it used it, and what it wants done.
public struct InputResult: Sendable {
    public var disposition: InputDisposition
    public var effects: WidgetEffects

    public init(_ disposition: InputDisposition, _ effects: WidgetEffects = .none) {
        self.disposition = disposition
        self.effects = effects
    }

    public static let handled = InputResult(.handled)
    public static let ignored = InputResult(.ignored)

    /// Used, with effects.
    public static func handled(_ effects: WidgetEffects) -> InputResult { InputResult(.handled, effects) }
}
