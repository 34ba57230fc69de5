// Micro-benchmarks: `swift run -c release tc-bench`.
//
// Render path: composes 120×40 and 200×60 canvases with 8 panes (calendars and event logs with
// 500 events each), the way the dashboard does on every input.
// Layout store: saves and loads a 50-pane layout with widget state in a real SQLite file, and
// measures the file after 10 000 arrangement steps.
// Recurrence: a busy calendar's year (500 events, 100 of them repeating) expanded, as a month
// view and a year's agenda ask.
// Medians and p95 over many runs.

import CalendarItems
import CalendarTime
import CanvasCore
import CanvasUI
import Foundation
import ICalendar
import LayoutStore
import Logging
import Recurrence
import ServerAPI
import SystemZones
import Widgets

@MainActor
func makeHost(size: Size) throws -> CanvasHost {
    let clock = CanvasClock.fixed(CalendarDate(year: 2026, month: 11, day: 22)!)
    let bus = EventBus(now: clock.now)
    for day in 0..<500 {
        bus.publish(DateSelected(date: CalendarDate(year: 2026, month: 1, day: 1)!.adding(days: day)))
        bus.publish(LayoutChanged(step: "step \(day)"))
    }
    var panes: [Pane] = []
    for index in 0..<8 {
        let frame = Rect(x: (index % 4) * 3, y: (index / 4) * 6, width: 3, height: 6)
        panes.append(Pane(id: PaneID(index + 1), app: index.isMultiple(of: 2) ? .calendar : .eventLog, frame: frame))
    }
    let host = try CanvasHost(
        layout: LayoutData(name: "bench", panes: panes, focused: 1), catalog: .builtIn, bus: bus, clock: clock,
        theme: .dark, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }), size: size
    )
    host.perform(host.update(.start(HostStart())))
    return host
}

func measure(_ name: String, iterations requested: Int, _ body: () throws -> Void) rethrows {
    let iterations = ProcessInfo.processInfo.environment["TC_BENCH_ITERATIONS"].flatMap(Int.init) ?? requested
    for _ in 0..<min(100, iterations) { try body() }  // warm up
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    let clock = ContinuousClock()
    for _ in 0..<iterations { samples.append(try clock.measure(body)) }
    samples.sort()
    func microseconds(_ d: Duration) -> String {
        String(format: "%8.1f µs", Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6)
    }
    print("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) median \(microseconds(samples[iterations / 2]))"
        + "   p95 \(microseconds(samples[iterations * 95 / 100]))   (\(iterations) runs)")
}

@MainActor
func main() throws {
    for size in [Size(width: 120, height: 40), Size(width: 200, height: 60)] {
        let host = try makeHost(size: size)
        print("\(size.width)×\(size.height), 8 panes:")
        measure("compose, nothing changed", iterations: 2_000) { _ = host.composeChanges() }
        let before = host.compose()
        host.perform(host.update(.input(.key(.right))))
        let after = host.compose()
        measure("diff of a whole frame after one arrow key", iterations: 2_000) { _ = after.changes(since: before) }
        // As the app loop does it: the screen's copy catches up with what changed in those rows.
        var screen = host.compose()
        measure("arrow key: update + compose + diff of its rows", iterations: 2_000) {
            host.perform(host.update(.input(.key(.right))))
            let (frame, rows) = host.composeChanges()
            _ = screen.catchUp(to: frame, in: rows)
        }
        let cells = after.changes(since: before).reduce(0) { $0 + $1.cells.count }
        print("cells written for that arrow key: \(cells)\n")
    }
}

/// The default-sized layout: three panes side by side.
func threePanes(name: String) -> LayoutData {
    LayoutData(name: name, panes: (0..<3).map { index in
        Pane(id: PaneID(index + 1), app: .calendar, frame: Rect(x: index * 4, y: 0, width: 4, height: 12),
             state: ["selected": "2026-11-22"])
    }, focused: 1)
}

/// A 50-pane layout (10 × 5 tiles) with settings and state in every pane.
func fiftyPanes(name: String) -> LayoutData {
    let grid = GridSpec(columns: 20, rows: 10, minimumPaneSize: Size(width: 1, height: 1))
    let panes = (0..<50).map { index in
        Pane(id: PaneID(index + 1), app: index.isMultiple(of: 2) ? .calendar : .eventLog,
             frame: Rect(x: (index % 10) * 2, y: (index / 10) * 2, width: 2, height: 2),
             config: ["weekStart": "monday", "filter": "*"],
             state: ["selected": "2026-11-\(10 + index % 18)", "scrollBack": "\(index)"])
    }
    return LayoutData(name: name, grid: grid, panes: panes, focused: 1)
}

func storeBenchmarks() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try LayoutStore.open(at: folder.appendingPathComponent("layouts.sqlite")).store
    let layout = fiftyPanes(name: "fifty")
    print("Layout store, 50 panes with state, SQLite file (WAL):")
    try measure("save", iterations: 500) { try store.save(layout) }
    try measure("load (with its history)", iterations: 500) { _ = try store.load(named: "fifty") }

    for (name, start, there, back) in [("steps", fiftyPanes(name: "steps"), Direction.down, Direction.up),
                                       ("small", threePanes(name: "small"), .right, .left)] {
        var manager = try CanvasManager(layout: start)
        let began = ContinuousClock.now
        for step in 0..<10_000 {
            try manager.movePane(1, step.isMultiple(of: 2) ? there : back)  // swaps with its neighbour
            try store.recordStep("move", layout: manager.saveLayout())
        }
        let elapsed = ContinuousClock.now - began
        print("10 000 steps of a \(start.panes.count)-pane layout: \(elapsed / 10_000) each, history keeps"
            + " \(try store.history(named: name).count) steps")
    }
    let bytes = try DatabaseFileSize.onDisk(folder.appendingPathComponent("layouts.sqlite"))
    print("database and WAL after both: \(bytes / 1024) KiB")
    try measure("load with a full history (500 steps)", iterations: 50) { _ = try store.load(named: "steps") }
}

/// 400 one-off events and 100 repeating ones over 2024–2026, their rules of every kind people
/// write (daily stand-ups, weekly meetings, the second Tuesday, the last weekday of the month,
/// birthdays), a fifth of them ending by a count or a date.
func busyCalendar() -> [RecurrenceSet] {
    let rules = ["FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "FREQ=MONTHLY;BYDAY=2TU",
                 "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=YEARLY", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=DAILY;INTERVAL=3",
                 "FREQ=WEEKLY;COUNT=10", "FREQ=MONTHLY;UNTIL=20261231T000000Z;BYDAY=-1FR"].map { try! RecurrenceRule(parsing: $0) }
    return (0..<500).map { index in
        // Spread over the three years and the working day, the same on every run.
        let day = CalendarDate(year: 2024, month: 1, day: 1)!.adding(days: index * 337 % 1000)
        let start = LocalDateTime(date: day, hour: 8 + index % 11, minute: 0)!
        return RecurrenceSet(start: start, rule: index < 100 ? rules[index % rules.count] : nil)
    }
}

func recurrenceBenchmarks() {
    let calendar = busyCalendar()
    print("Recurrence, 500 events (100 repeating):")
    for (name, first, last) in [("a month expanded (November 2026)", "2026-11-01", "2026-11-30"), ("a year expanded (2026)", "2026-01-01", "2026-12-31")] {
        let range = LocalDateTime(CalendarDate(iso: first)!)...LocalDateTime(date: CalendarDate(iso: last)!, secondsIntoDay: 86_399)!
        var instances = 0
        measure(name, iterations: 200) { instances = calendar.reduce(0) { $0 + $1.instances(in: range).count } }
        print("instances: \(instances)")
    }
}

/// The same calendar as the server keeps it: each event's iCalendar text, the repeating ones in
/// Europe/Paris, read and its instances worked out as a list of a range does.
func serverCalendarBenchmarks() {
    let texts = busyCalendar().enumerated().map { index, set in
        let start = "DTSTART" + (set.rule == nil ? ":\(set.start.basic)Z" : ";TZID=Europe/Paris:\(set.start.basic)")
        let end = "DTEND" + (set.rule == nil ? ":\(set.start.adding(seconds: 3600).basic)Z" : ";TZID=Europe/Paris:\(set.start.adding(seconds: 3600).basic)")
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:event-\(index)@example.org\r\nDTSTAMP:20260101T000000Z\r\n"
            + "SUMMARY:Event \(index)\r\n\(start)\r\n\(end)\r\n" + (set.rule.map { "RRULE:\($0.text)\r\n" } ?? "") + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }
    print("The server's calendar, 500 events (100 repeating, in Europe/Paris), read from their text and listed:")
    for (name, first, last) in [("a month listed (November 2026)", "2026-11-01T00:00:00Z", "2026-11-30T23:59:59Z"),
                                ("a year listed (2026)", "2026-01-01T00:00:00Z", "2026-12-31T23:59:59Z")] {
        var instances = 0
        let (from, to) = (UTCInstant(iso: first)!, UTCInstant(iso: last)!)
        measure(name, iterations: 200) {
            var budget = CalendarLimits.workPerRequest
            instances = texts.enumerated().reduce(0) { count, item in
                guard let calendar = try? ICalendarText.read(item.element).first,
                      let resource = try? EventResource(calendar: calendar, zones: SystemZones.zone) else { return count }
                return count + resource.apiEvents(id: Int64(item.offset), from: from, to: to, budget: &budget).count
            }
        }
        print("instances: \(instances)")
    }
}

// `tc-bench calendar`: the calendar's alone (to profile).
if CommandLine.arguments.dropFirst().first == "calendar" {
    recurrenceBenchmarks()
    serverCalendarBenchmarks()
} else {
    try await MainActor.run { try main() }
    try storeBenchmarks()
    recurrenceBenchmarks()
    serverCalendarBenchmarks()
}
