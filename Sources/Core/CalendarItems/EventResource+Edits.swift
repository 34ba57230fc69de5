import CalendarTime
import ICalendar
import Recurrence
import ServerAPI

/// Changes to an event as the API asks for them: a new one, and of a repeating one all its
/// instances, one alone (a `RECURRENCE-ID` of its own, or an `EXDATE`), or one and those after it
/// (the series ended before it, a new one from it), as RFC 5545 section 3.8.4.4 and calendar
/// programs do. The properties the API does not name stay as they were.
extension EventResource {
    /// A new event of the API's fields, its times in `event.timeZone` (when the database has it),
    /// else UTC; all day: days.
    public static func new(uid: String, event: CalendarEvent, stamp: UTCInstant,
                           zones database: @escaping @Sendable (String) -> ZoneRules?) -> EventResource {
        let component = ICalComponent(name: "VEVENT", properties: [
            ICalProperty(name: "UID", value: uid), ICalProperty(name: "DTSTAMP", value: Self.basicUTC(stamp)),
        ])
        let calendar = ICalComponent(name: "VCALENDAR", components: [component])
        // A calendar of one event with a UID and no start yet cannot fail to read; its start comes next.
        let empty = EventResource(uid: uid, master: nil, changes: [], timeZones: [],
                                  zones: CalendarZones(calendar: calendar, database: database))
        var described = empty.described(component, as: event, start: nil, stamp: stamp)
        // A display alarm says what it is of (RFC 5545 section 3.6.6: DESCRIPTION is required).
        described.components = (event.reminders ?? []).map { minutes in
            ICalComponent(name: "VALARM", properties: [
                ICalProperty(name: "ACTION", value: "DISPLAY"), ICalProperty(name: "TRIGGER", value: "-PT\(minutes)M"),
                ICalProperty(name: "DESCRIPTION", value: ICalText.escape(event.title)),
            ])
        }
        return empty.withMaster(described)
    }

    /// Every instance changed as `before` (how the API showed one instance, or the event) became
    /// `after`: the start moves by as much on the event's clock, the length becomes `after`'s,
    /// the words and the rule `after`'s. Instances changed or taken out one by one move with it.
    public func changingAll(from before: CalendarEvent, to after: CalendarEvent, stamp: UTCInstant) -> EventResource? {
        guard let master, let oldStart = master.start else { return nil }
        let newForm = form(allDay: after.allDay, zone: after.timeZone, keeping: oldStart)
        // The edited instance's clocks before and after; every date of the event moves by their difference.
        let shift = clock(of: after.start.secondsSinceEpoch, in: newForm).secondsSinceEpoch
            - clock(of: before.start.secondsSinceEpoch, in: oldStart).secondsSinceEpoch
        func moved(_ value: ICalDateTime) -> ICalDateTime {
            newForm.at(clock(of: utc(of: value), in: oldStart).adding(seconds: shift))
        }
        var component = described(master.component, as: after, start: moved(oldStart), stamp: stamp)
        if after.recurrence == nil {
            component.properties.removeAll { ["RRULE", "RDATE", "EXDATE"].contains($0.name) }
        } else {
            component.properties = component.properties.map { property in
                property.name == "EXDATE" || property.name == "RDATE" ? Self.dates(property, moved: moved) : property
            }
        }
        return withMaster(component).withChanges(after.recurrence == nil ? [] : changes.compactMap { change in
            guard let id = change.recurrenceID else { return nil }
            var changed = change.component
            Self.set(&changed, moved(id).property("RECURRENCE-ID"))
            return changed
        })
    }

    /// `instance` (its `instanceStart`) alone becomes `after`; nil when the event has no such instance.
    public func changingOne(_ instance: UTCInstant, to after: CalendarEvent, stamp: UTCInstant) -> EventResource? {
        guard let master, let masterStart = master.start, let id = instanceID(instance) else { return nil }
        var base = changes.first { $0.recurrenceID.map(recurrenceClock) == id.clock }?.component ?? master.component
        base.properties.removeAll { ["RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"].contains($0.name) }
        Self.set(&base, id.property("RECURRENCE-ID"))
        var changed = after
        changed.recurrence = nil
        let newForm = form(allDay: after.allDay, zone: after.timeZone, keeping: masterStart)
        let component = described(base, as: changed, start: newForm.at(clock(of: after.start.secondsSinceEpoch, in: newForm)), stamp: stamp)
        return withChanges(changes.filter { $0.recurrenceID.map(recurrenceClock) != id.clock }.map(\.component) + [component])
    }

    /// Without `instance`: an `EXDATE` for it, and its change if it had one. Nil when the event has
    /// no such instance.
    public func removingOne(_ instance: UTCInstant) -> EventResource? {
        guard var component = master?.component, let id = instanceID(instance) else { return nil }
        component.properties.append(id.property("EXDATE"))
        return withMaster(component).withChanges(changes.filter { $0.recurrenceID.map(recurrenceClock) != id.clock }.map(\.component))
    }

    /// The instances before `instance` only: the rule ends before it, dates and changes from it on
    /// go. Nil when the event has no such instance or `instance` is its first (nothing would be left).
    public func endingBefore(_ instance: UTCInstant) -> EventResource? {
        guard let master, let id = instanceID(instance), let before = instancesBefore(instance), before > 0 else { return nil }
        var component = master.component
        if var rule = master.rule {
            if case .count = rule.end { rule.end = .count(ruleInstancesBefore(instance)) } else { rule.end = .until(untilBefore(id)) }
            Self.set(&component, ICalProperty(name: "RRULE", value: rule.text))
        }
        component.properties = component.properties.compactMap { property in
            property.name == "RDATE" || property.name == "EXDATE" ? keepingDates(property, before: instance) : property
        }
        return withMaster(component).withChanges(changes.filter { change in
            change.recurrenceID.map { utc(of: $0) < instance.secondsSinceEpoch } ?? false
        }.map(\.component))
    }

    /// The same event as another one, named `uid`, its title (and its changed instances') ending
    /// with `titleSuffix`: what was changed here of an event also changed on the CalDAV server,
    /// kept beside the server's version.
    public func copy(uid: String, titleSuffix: String) -> EventResource {
        func renamed(_ component: ICalComponent) -> ICalComponent {
            var copy = component
            Self.set(&copy, ICalProperty(name: "UID", value: uid))
            Self.set(&copy, ICalProperty(name: "SUMMARY", value: (component["SUMMARY"]?.value ?? "") + titleSuffix))
            return copy
        }
        let base = EventResource(uid: uid, master: nil, changes: [], timeZones: timeZones, zones: zones)
        return (master.map { base.withMaster(renamed($0.component)) } ?? base).withChanges(changes.map { renamed($0.component) })
    }

    /// `instance` and those after it, as an event of their own named `uid`, changed as `after`
    /// says; nil when the event has no such instance.
    public func following(_ instance: UTCInstant, uid: String, to after: CalendarEvent, before: CalendarEvent,
                          stamp: UTCInstant) -> EventResource? {
        guard let master, let id = instanceID(instance) else { return nil }
        var component = master.component
        Self.set(&component, ICalProperty(name: "UID", value: uid))
        // As long as the instance was (its DTEND, or DURATION, or a day).
        let length = before.end.secondsSinceEpoch - before.start.secondsSinceEpoch
        Self.set(&component, id.property("DTSTART"))
        component.properties.removeAll { $0.name == "DURATION" }
        Self.set(&component, id.at(clock(of: utc(of: id) + length, in: id)).property("DTEND"))
        var after = after
        if let rule = master.rule, case .count(let count) = rule.end {
            var rest = rule
            rest.end = .count(max(1, count - ruleInstancesBefore(instance)))
            Self.set(&component, ICalProperty(name: "RRULE", value: rest.text))
            // Unless the change gives a rule of its own, the rest of this one.
            if after.recurrence == before.recurrence { after.recurrence = rest.text }
        }
        component.properties = component.properties.compactMap { property in
            property.name == "RDATE" || property.name == "EXDATE" ? keepingDates(property, from: instance) : property
        }
        let moved = changes.filter { change in change.recurrenceID.map { utc(of: $0) >= instance.secondsSinceEpoch } ?? false }.map { change in
            var copy = change.component
            Self.set(&copy, ICalProperty(name: "UID", value: uid))
            return copy
        }
        let split = EventResource(uid: uid, master: nil, changes: [], timeZones: timeZones, zones: zones).withMaster(component).withChanges(moved)
        return split.changingAll(from: before, to: after, stamp: stamp)
    }
}

extension EventResource {
    init(uid: String, master: CalendarEntry?, changes: [CalendarEntry], timeZones: [ICalComponent], zones: CalendarZones) {
        self.uid = uid
        self.master = master
        self.changes = changes
        self.timeZones = timeZones
        self.zones = zones
    }

    /// With `component` as its event. It was made from a valid event's with valid values, so it reads.
    func withMaster(_ component: ICalComponent) -> EventResource {
        EventResource(uid: uid, master: try? CalendarEntry(component), changes: changes, timeZones: timeZones, zones: zones)
    }

    func withChanges(_ components: [ICalComponent]) -> EventResource {
        EventResource(uid: uid, master: master, changes: components.compactMap { try? CalendarEntry($0) }, timeZones: timeZones, zones: zones)
    }

    /// `component` with the API event's words, times (`start`, or the event's own in its form) and rule.
    func described(_ component: ICalComponent, as event: CalendarEvent, start: ICalDateTime?, stamp: UTCInstant) -> ICalComponent {
        var component = component
        let startValue = start ?? form(allDay: event.allDay, zone: event.timeZone, keeping: nil)
            .at(clock(of: event.start.secondsSinceEpoch, in: form(allDay: event.allDay, zone: event.timeZone, keeping: nil)))
        let length = event.end.secondsSinceEpoch - event.start.secondsSinceEpoch
        let endValue = startValue.at(clock(of: utc(of: startValue) + length, in: startValue))
        Self.set(&component, ICalProperty(name: "DTSTAMP", value: Self.basicUTC(stamp)))
        Self.set(&component, ICalProperty(name: "SUMMARY", value: ICalText.escape(event.title)))
        Self.set(&component, startValue.property("DTSTART"))
        component.properties.removeAll { $0.name == "DURATION" }
        Self.set(&component, endValue.property("DTEND"))
        Self.set(&component, event.location.map { ICalProperty(name: "LOCATION", value: ICalText.escape($0)) }, named: "LOCATION")
        Self.set(&component, event.description.map { ICalProperty(name: "DESCRIPTION", value: ICalText.escape($0)) }, named: "DESCRIPTION")
        // The rule as written, unless its UNTIL must take the form of the start.
        let rule = event.recurrence.flatMap { text in
            (try? RecurrenceRule(parsing: text)).map { parsed in untilInForm(parsed, of: startValue) == parsed ? text : untilInForm(parsed, of: startValue).text }
        }
        Self.set(&component, rule.map { ICalProperty(name: "RRULE", value: $0) }, named: "RRULE")
        return component
    }

    /// The kind of value an event's times are: days when all day, else in `zone`, else as they
    /// were (`keeping`, floating stays floating), else UTC.
    func form(allDay: Bool, zone: String?, keeping old: ICalDateTime?) -> ICalDateTime {
        let midnight = LocalDateTime(CalendarDate(year: 1970, month: 1, day: 1)!)
        if allDay { return .date(midnight.date) }
        if let zone, zones.zone(zone) != nil { return .zoned(midnight, zone: zone) }
        if case .floating? = old, zone == nil { return .floating(midnight) }
        return .utc(midnight)
    }

    /// `moment` on the clock of `form`'s kind of value.
    func clock(of moment: Int64, in form: ICalDateTime) -> LocalDateTime {
        switch form {
        case .zoned(_, let zone): (zones.zone(zone) ?? Self.home).local(ofUTC: moment)
        case .date, .floating, .utc: Self.home.local(ofUTC: moment)
        }
    }

    /// A `RECURRENCE-ID` on the event's own clock, as `CalendarOccurrences` matches them.
    func recurrenceClock(_ value: ICalDateTime) -> LocalDateTime {
        guard let start = master?.start else { return value.clock }
        return clock(of: utc(of: value), in: start)
    }

    /// The `RECURRENCE-ID` naming `instance`, in the form of the event's start; nil when the event
    /// has no instance there.
    func instanceID(_ instance: UTCInstant) -> ICalDateTime? {
        guard let start = master?.start else { return nil }
        let id = start.at(clock(of: instance.secondsSinceEpoch, in: start))
        let moment = utc(of: id)
        let found = occurrences(from: moment, before: moment + 1).contains { $0.originalStart == moment }
            || changes.contains { $0.recurrenceID.map(recurrenceClock) == id.clock }
        return found ? id : nil
    }

    /// How many instances come before `instance`, from the event's start.
    func instancesBefore(_ instance: UTCInstant) -> Int? {
        guard master?.start != nil else { return nil }
        return occurrences(from: Self.earliestMoment, before: instance.secondsSinceEpoch)
            .filter { ($0.originalStart ?? $0.start) < instance.secondsSinceEpoch }.count
    }

    /// How many instances the rule gives before `instance`, those taken out (`EXDATE`) included and
    /// those added (`RDATE`) not: what a `COUNT` counts.
    func ruleInstancesBefore(_ instance: UTCInstant) -> Int {
        guard var component = master?.component else { return 0 }
        component.properties.removeAll { $0.name == "EXDATE" || $0.name == "RDATE" }
        return withMaster(component).withChanges([]).occurrences(from: Self.earliestMoment, before: instance.secondsSinceEpoch).count
    }

    /// An `UNTIL` the instant before `id`, in the form RFC 5545 asks for the event's start: a day
    /// for days, UTC for a zoned or UTC start, the clock for a floating one.
    func untilBefore(_ id: ICalDateTime) -> RecurrenceRule.Until {
        switch id {
        case .date(let date): .date(date.adding(days: -1))
        case .floating(let clock): .local(clock.adding(seconds: -1))
        case .utc, .zoned: .utc(LocalDateTime(secondsSinceEpoch: utc(of: id) - 1))
        }
    }

    /// `rule` with its `UNTIL` in the form `start` asks for.
    func untilInForm(_ rule: RecurrenceRule, of start: ICalDateTime) -> RecurrenceRule {
        guard case .until(let until) = rule.end else { return rule }
        var fixed = rule
        let moment: Int64 = switch until {
        case .date(let date): LocalDateTime(date).adding(seconds: 86_399).secondsSinceEpoch
        case .local(let clock): utc(of: start.at(clock))
        case .utc(let clock): clock.secondsSinceEpoch
        }
        let inForm: RecurrenceRule.Until = switch start {
        case .date: .date(clock(of: moment, in: start).date)
        case .floating: .local(clock(of: moment, in: start))
        case .utc, .zoned: .utc(LocalDateTime(secondsSinceEpoch: moment))
        }
        fixed.end = .until(inForm)
        return fixed
    }

    /// A `RDATE` or `EXDATE` with the dates before `instance` only; nil when none is left.
    func keepingDates(_ property: ICalProperty, before instance: UTCInstant) -> ICalProperty? {
        filtering(property) { $0 < instance.secondsSinceEpoch }
    }

    func keepingDates(_ property: ICalProperty, from instance: UTCInstant) -> ICalProperty? {
        filtering(property) { $0 >= instance.secondsSinceEpoch }
    }

    private func filtering(_ property: ICalProperty, keep: (Int64) -> Bool) -> ICalProperty? {
        let kept = property.value.split(separator: ",").filter { item in
            var single = property
            single.value = String(item.split(separator: "/").first ?? item)
            single.parameters.removeAll { $0.name == "VALUE" && $0.values.first?.uppercased() == "PERIOD" }
            return (try? ICalDateTime(single)).map { keep(utc(of: $0)) } ?? true
        }
        guard !kept.isEmpty else { return nil }
        var result = property
        result.value = kept.joined(separator: ",")
        return result
    }

    /// A `RDATE` or `EXDATE` each of whose dates is moved.
    static func dates(_ property: ICalProperty, moved: (ICalDateTime) -> ICalDateTime) -> ICalProperty {
        let values = property.value.split(separator: ",").compactMap { item -> ICalDateTime? in
            var single = property
            single.value = String(item.split(separator: "/").first ?? item)
            single.parameters.removeAll { $0.name == "VALUE" && $0.values.first?.uppercased() == "PERIOD" }
            return (try? ICalDateTime(single)).map(moved)
        }
        guard let first = values.first else { return property }
        var result = first.property(property.name)
        result.value = values.map { first.at($0.clock).property(property.name).value }.joined(separator: ",")
        return result
    }

    /// Sets `property` in place of every property of its name (the first one's place), or takes
    /// them away when it is nil.
    static func set(_ component: inout ICalComponent, _ property: ICalProperty?, named name: String? = nil) {
        let name = property?.name ?? name ?? ""
        let place = component.properties.firstIndex { $0.name == name }
        component.properties.removeAll { $0.name == name }
        guard let property else { return }
        component.properties.insert(property, at: min(place ?? component.properties.count, component.properties.count))
    }

    /// `20261130T090000Z`.
    static func basicUTC(_ instant: UTCInstant) -> String {
        LocalDateTime(secondsSinceEpoch: instant.secondsSinceEpoch).basic + "Z"
    }
}
