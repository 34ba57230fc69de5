import FoundationEssentials

/// A typed event carried by the canvas event bus. Each type declares its one name.
public protocol BusEvent: Sendable {
    static var name: EventName { get }
    /// This event's name: the type's, except for events whose names are chosen at run time
    /// (a micro-app's).
    var eventName: EventName { get }
    /// One line describing the payload, shown in the Event Log.
    var summary: String { get }
    /// True when only the latest event of a run matters (a selection, not a step), so a log
    /// may show a run of them as one line.
    static var supersedesPrevious: Bool { get }
}

extension BusEvent {
    public var eventName: EventName { Self.name }
    public static var supersedesPrevious: Bool { false }
}

/// One published event as listeners and the event log see it.
public struct CanvasEvent: Sendable {
    /// Publish order, starting at 1 for each bus.
    public let sequence: Int
    public let name: EventName
    /// The pane that published it; `nil` for the canvas itself.
    public let source: PaneID?
    public let time: Date
    public let payload: any BusEvent

    public init(sequence: Int, source: PaneID?, time: Date, payload: any BusEvent) {
        self.sequence = sequence
        self.name = payload.eventName
        self.source = source
        self.time = time
        self.payload = payload
    }

    public var summary: String { payload.summary }

    /// The payload as `E`, when this event is one.
    public func payload<E: BusEvent>(as type: E.Type) -> E? { payload as? E }
}
