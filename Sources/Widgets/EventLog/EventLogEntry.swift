import CanvasCore

/// One line of the Event Log: an event, or a run of consecutive events of the same name and
/// source collapsed into one line with a count (like a browser console), showing the latest.
struct EventLogEntry: Equatable {
    var time: String
    let name: EventName
    let source: PaneID?
    var summary: String
    var count: Int

    func continues(with event: CanvasEvent) -> Bool {
        event.name == name && event.source == source
    }
}
