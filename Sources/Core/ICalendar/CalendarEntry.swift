import CalendarTime
import Recurrence

/// A `VEVENT` or `VTODO` read for what the dashboard shows and repeats: its identity, when it is,
/// how it repeats, and its words. The component itself is kept whole (`component`), so what is
/// not read here is written back as it came.
public struct CalendarEntry: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case event
        case task
    }

    public let kind: Kind
    public let uid: String
    /// Set on an instance of a repeating entry changed on its own: the start it replaces.
    public let recurrenceID: ICalDateTime?
    public let start: ICalDateTime?
    /// `DTEND` of an event, `DUE` of a task.
    public let end: ICalDateTime?
    public let duration: ICalDuration?
    public let rule: RecurrenceRule?
    public let added: [ICalDateTime]
    public let removed: [ICalDateTime]
    public let summary: String
    public let component: ICalComponent

    /// Reads `component`, a `VEVENT` or `VTODO`; a mistake is named with its line.
    public init(_ component: ICalComponent) throws(ICalError) {
        switch component.name {
        case "VEVENT": kind = .event
        case "VTODO": kind = .task
        default: throw ICalError(line: component.line, "\(component.name) is neither an event (VEVENT) nor a task (VTODO)")
        }
        guard let uid = component["UID"]?.value, !uid.isEmpty else {
            throw ICalError(line: component.line, "BEGIN:\(component.name) has no UID: every event and task needs one")
        }
        self.uid = uid
        func value(_ name: String) throws(ICalError) -> ICalDateTime? {
            guard let property = component[name] else { return nil }
            return try ICalDateTime(property)
        }
        recurrenceID = try value("RECURRENCE-ID")
        start = try value("DTSTART")
        end = try value(kind == .event ? "DTEND" : "DUE")
        if let property = component["DURATION"] {
            guard let duration = ICalDuration(property.value) else {
                throw ICalError(line: property.line, "DURATION:\(property.value.prefix(40)): a duration like PT1H30M, P1D or -PT15M")
            }
            self.duration = duration
        } else {
            duration = nil
        }
        if let property = component["RRULE"] {
            do {
                rule = try RecurrenceRule(parsing: property.value)
            } catch {
                throw ICalError(line: property.line, "RRULE: \(error.description)")
            }
        } else {
            rule = nil
        }
        func dates(_ name: String) throws(ICalError) -> [ICalDateTime] {
            var found: [ICalDateTime] = []
            for property in component.all(name) {
                for item in property.value.split(separator: ",") {
                    var single = property
                    // A period (`VALUE=PERIOD`, start/end or start/duration) repeats from its start.
                    single.value = String(item.split(separator: "/").first ?? item)
                    single.parameters.removeAll { $0.name == "VALUE" && $0.values.first?.uppercased() == "PERIOD" }
                    found.append(try ICalDateTime(single))
                }
            }
            return found
        }
        added = try dates("RDATE")
        removed = try dates("EXDATE")
        summary = component["SUMMARY"].map { ICalText.unescape($0.value) } ?? ""
        self.component = component
    }
}
