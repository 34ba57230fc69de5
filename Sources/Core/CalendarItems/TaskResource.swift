import CalendarTime
import ICalendar
import ServerAPI

/// A task as the todo list keeps it: an iCalendar `VTODO` (RFC 5545 section 3.6.2) with the time
/// zone definitions it uses, kept as it came, and what the list shows of it. The list's own
/// changes (title, notes, done, due, priority) are its columns; a task is written back with them
/// over what came (`exported`), so nothing else is lost.
public struct TaskResource: Sendable {
    public let uid: String
    public let component: ICalComponent
    public let timeZones: [ICalComponent]
    /// What the list shows of it, its id to come.
    public let item: TodoItem

    /// The tasks of an imported calendar, one per UID (an instance of a repeating task changed on
    /// its own is left to its task); each task or the mistake that kept it out.
    public static func resources(in calendar: ICalComponent) -> [Result<TaskResource, ICalError>] {
        var seen = Set<String>()
        return calendar.components(named: "VTODO").compactMap { component in
            guard let uid = component["UID"]?.value, !uid.isEmpty else {
                return .failure(ICalError(line: component.line, "BEGIN:VTODO has no UID: every task needs one"))
            }
            guard component["RECURRENCE-ID"] == nil, seen.insert(uid).inserted else { return nil }
            let used = Set(component.properties.compactMap { $0.parameter("TZID") })
            return Result { () throws(ICalError) in
                try TaskResource(uid: uid, component: component,
                                 timeZones: calendar.components(named: "VTIMEZONE").filter { $0["TZID"].map { used.contains($0.value) } ?? false })
            }
        }
    }

    init(uid: String, component: ICalComponent, timeZones: [ICalComponent]) throws(ICalError) {
        let entry = try CalendarEntry(component)
        self.uid = uid
        self.component = component
        self.timeZones = timeZones
        let status = component["STATUS"]?.value.uppercased()
        let priority = component["PRIORITY"].flatMap { Int($0.value) }.flatMap { (1...9).contains($0) ? $0 : nil }
        var item = TodoItem(id: 0, title: EventResource.shown(entry.summary, length: TodoLimits.titleLength.upperBound) ?? EventResource.untitled,
                            notes: component["DESCRIPTION"].flatMap {
                                EventResource.shown(ICalText.unescape($0.value), length: TodoLimits.notesMaxLength, lines: true)
                            } ?? "",
                            done: status == "COMPLETED" || component["COMPLETED"] != nil, due: entry.end?.clock.date)
        item.uid = uid
        item.priority = priority
        self.item = item
    }

    /// A stored task read back (`text` as `calendar` wrote it).
    public init?(text: String) {
        guard let calendar = (try? ICalendarText.read(text))?.first, let component = calendar.components(named: "VTODO").first,
              let uid = component["UID"]?.value, let task = try? TaskResource(uid: uid, component: component,
                                                                                timeZones: calendar.components(named: "VTIMEZONE")) else { return nil }
        self = task
    }

    /// As a `VCALENDAR` of its own, for the database.
    public var text: String { Self.calendarText(component, timeZones: timeZones) }

    private static func calendarText(_ task: ICalComponent, timeZones: [ICalComponent]) -> String {
        ICalendarText.write([ICalComponent(name: "VCALENDAR", properties: [
            ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: EventResource.productID),
        ], components: timeZones + [task])])
    }

    /// The item's `UID`: its own, or one made of its id for an item made in the list.
    public static func uid(of item: TodoItem) -> String { item.uid ?? "termcanvas-todo-\(item.id)" }

    /// The same task named `uid`, its title followed by `titleSuffix`: what was changed here of a
    /// task changed on both sides, kept as a task of its own.
    public func copy(uid: String, titleSuffix: String) -> TaskResource {
        var copy = component
        EventResource.set(&copy, ICalProperty(name: "UID", value: uid))
        EventResource.set(&copy, ICalProperty(name: "SUMMARY", value: (component["SUMMARY"]?.value ?? "") + titleSuffix))
        // Read back from what it is made of, so `item` says the new title.
        return (try? TaskResource(uid: uid, component: copy, timeZones: timeZones)) ?? self
    }

    /// `item` as a task's text of its own (a `VCALENDAR`), as `exported` makes it: what a CalDAV
    /// server is sent.
    public static func text(of item: TodoItem, stored: TaskResource?, stamp: UTCInstant) -> String {
        let (task, timeZones) = exported(item, stored: stored, stamp: stamp)
        return calendarText(task, timeZones: timeZones)
    }

    /// `item` as a `VTODO`: what the list keeps of it written over `stored` (the task as it was
    /// imported), or a task of its own (`UID` made of its id) for one made in the list.
    public static func exported(_ item: TodoItem, stored: TaskResource?, stamp: UTCInstant) -> (task: ICalComponent, timeZones: [ICalComponent]) {
        var component = stored?.component ?? ICalComponent(name: "VTODO", properties: [
            ICalProperty(name: "UID", value: uid(of: item)),
            ICalProperty(name: "DTSTAMP", value: EventResource.basicUTC(stamp)),
        ])
        let before = stored?.item
        func set(_ name: String, _ property: ICalProperty?) { EventResource.set(&component, property, named: name) }
        if before?.title != item.title { set("SUMMARY", ICalProperty(name: "SUMMARY", value: ICalText.escape(item.title))) }
        if before?.notes != item.notes { set("DESCRIPTION", item.notes.isEmpty ? nil : ICalProperty(name: "DESCRIPTION", value: ICalText.escape(item.notes))) }
        if before?.due != item.due { set("DUE", item.due.map { ICalDateTime.date($0).property("DUE") }) }
        if before?.priority != item.priority { set("PRIORITY", item.priority.map { ICalProperty(name: "PRIORITY", value: String($0)) }) }
        if before?.done != item.done || stored == nil {
            set("STATUS", ICalProperty(name: "STATUS", value: item.done ? "COMPLETED" : "NEEDS-ACTION"))
            set("COMPLETED", item.done ? ICalProperty(name: "COMPLETED", value: EventResource.basicUTC(stamp)) : nil)
            if item.done { set("PERCENT-COMPLETE", nil) }
        }
        return (component, stored?.timeZones ?? [])
    }
}
