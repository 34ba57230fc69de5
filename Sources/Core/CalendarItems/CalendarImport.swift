import CalendarTime
import ICalendar

/// What imported calendars hold for the server: their events and tasks, each within what the
/// server keeps of one, and the mistakes that kept the others out, by line. The same reading in
/// `termcanvas calendar import` (to name a file's mistakes before sending it) and the server.
public struct CalendarImport: Sendable {
    public private(set) var events: [EventResource] = []
    public private(set) var tasks: [TaskResource] = []
    public private(set) var problems: [ICalError] = []

    public init(_ calendars: [ICalComponent], zones: @escaping @Sendable (String) -> ZoneRules?) {
        for calendar in calendars {
            for result in EventResource.resources(in: calendar, zones: zones) {
                let line = { (event: EventResource) in event.master?.component.line ?? event.changes.first?.component.line ?? 0 }
                if let event = Self.kept(result, as: "event", line: line, size: \.text.utf8.count, uid: \.uid, problems: &problems) { events.append(event) }
            }
            for result in TaskResource.resources(in: calendar) {
                if let task = Self.kept(result, as: "task", line: \.component.line, size: \.text.utf8.count, uid: \.uid, problems: &problems) { tasks.append(task) }
            }
        }
        problems.sort { $0.line < $1.line }
    }

    /// The item read, unless it is a mistake or too large, which `problems` gets.
    private static func kept<Item>(_ result: Result<Item, ICalError>, as what: String, line: (Item) -> Int, size: (Item) -> Int,
                                   uid: (Item) -> String, problems: inout [ICalError]) -> Item? {
        switch result {
        case .success(let item) where size(item) <= EventLimits.resourceBytes:
            return item
        case .success(let item):
            problems.append(ICalError(line: line(item), "the \(what) \(uid(item).prefix(60)) is larger than \(EventLimits.resourceBytes / 1024) KiB "
                                      + "of iCalendar text, more than the server keeps of one \(what)"))
        case .failure(let error):
            problems.append(error)
        }
        return nil
    }
}
