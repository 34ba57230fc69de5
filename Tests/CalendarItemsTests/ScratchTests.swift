@testable import CalendarItems
import CalendarTime
import ICalendar
import Recurrence
import Testing

@Test func scratch() throws {
    let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261101T000000Z\r\nRRULE:FREQ=SECONDLY;INTERVAL=61;BYMINUTE=0;BYSECOND=0\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let resource = try EventResource(calendar: ICalendarText.read(text)[0], zones: { _ in nil })
    var budget = 100_000_000
    let clock = ContinuousClock()
    let t0 = clock.now
    let events = resource.apiEvents(id: 1, from: UTCInstant(iso: "2026-11-01T00:00:00Z")!, to: UTCInstant(iso: "2027-11-01T00:00:00Z")!, limit: 102, budget: &budget)
    print("SCRATCH", events.count, 100_000_000 - budget, clock.now - t0)
}

@Test func scratch2() throws {
    let rule = try RecurrenceRule(parsing: "FREQ=SECONDLY;INTERVAL=61;BYMINUTE=0;BYSECOND=0")
    let clock = ContinuousClock()
    let t0 = clock.now
    let start = LocalDateTime(basic: "20261101T000000")!
    let found = rule.instances(from: start, in: start...LocalDateTime(basic: "20271101T000000")!, limit: 102)
    print("SCRATCH2", found.count, clock.now - t0)
    let t1 = clock.now
    let set = RecurrenceSet(start: start, rule: rule)
    let f2 = set.instances(in: start...LocalDateTime(basic: "20271101T000000")!, limit: 102)
    print("SCRATCH3", f2.count, clock.now - t1)
}
