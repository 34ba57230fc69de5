import CanvasCore

/// One line of the Event Log: an event, or a run of consecutive events collapsed into one line
/// with a count (like a browser console): identical ones, or of a type where the latest
/// supersedes the previous (a selection), which then shows the latest.
struct EventLogEntry: Equatable {
    var time: String
    let name: EventName
    let source: PaneID?
    var summary: String
    var count: Int

    func continues(with event: CanvasEvent) -> Bool {
        event.name == name && event.source == source
            && (event.summary == summary || type(of: event.payload).supersedesPrevious)
    }
}
