import CanvasCore
import MicroAppProtocol

/// An event a micro-app published; the host checked its name against what the app declared and
/// the user granted, and stamped its source.
public struct AppEventPublished: BusEvent {
    /// The family of every app event; each carries its own name as `eventName`.
    public static let name: EventName = "app.event.published"
    public let eventName: EventName
    public let app: String
    public let payload: JSONValue
    public let summary: String

    public init(eventName: EventName, app: String, payload: JSONValue, summary: String) {
        self.eventName = eventName
        self.app = app
        self.payload = payload
        self.summary = summary
    }
}

/// A micro-app published faster than its limit; `dropped` events were not delivered.
public struct AppThrottled: BusEvent, Hashable {
    public static let name: EventName = "canvas.app.throttled"
    public let app: String
    public let dropped: Int

    public init(app: String, dropped: Int) {
        self.app = app
        self.dropped = dropped
    }

    public var summary: String { "\(app): dropped \(dropped) publish\(dropped == 1 ? "" : "es") over its limit" }
}

/// A micro-app's process ended without being asked to.
public struct AppCrashed: BusEvent, Hashable {
    public static let name: EventName = "canvas.app.crashed"
    public let app: String
    /// `exit 1`, `killed by signal 9`.
    public let status: String

    public init(app: String, status: String) {
        self.app = app
        self.status = status
    }

    public var summary: String { "\(app): \(status)" }
}
