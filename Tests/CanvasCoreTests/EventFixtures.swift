import CanvasCore
import Foundation

// Test events; `calendarx` checks that `calendar.*` matches whole segments only.
struct DateSelected: BusEvent, Equatable {
    static let name: EventName = "calendar.date.selected"
    let date: String
    var summary: String { date }
}

struct MonthShown: BusEvent {
    static let name: EventName = "calendar.month.shown"
    let month: Int
    var summary: String { "month \(month)" }
}

struct NoteAdded: BusEvent {
    static let name: EventName = "notes.note.added"
    let text: String
    var summary: String { text }
}

struct LookAlike: BusEvent {
    static let name: EventName = "calendarx.date.selected"
    var summary: String { "look-alike" }
}

struct Ping: BusEvent {
    static let name: EventName = "test.ping.sent"
    let n: Int
    var summary: String { "ping \(n)" }
}

/// An event whose name is chosen at run time, as a micro-app's is.
struct Named: BusEvent {
    static let name: EventName = "test.named.sent"
    let eventName: EventName
    var summary: String { eventName.rawValue }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

/// Collects what listeners saw, in order.
@MainActor
final class Recorder {
    var seen: [String] = []

    /// A listener that records `label:summary`.
    func listener(_ label: String) -> EventBus.Listener {
        { [unowned self] event in seen.append("\(label):\(event.summary)") }
    }
}

@MainActor
func makeBus(logCapacity: Int = 500) -> EventBus {
    EventBus(logCapacity: logCapacity, now: { Date(timeIntervalSince1970: 0) })
}

@MainActor
func publishSamples(on bus: EventBus) {
    bus.publish(DateSelected(date: "2026-11-22"))
    bus.publish(MonthShown(month: 11))
    bus.publish(NoteAdded(text: "hello"))
    bus.publish(LookAlike())
}
