// Micro-benchmarks of the render path: `swift run -c release tc-bench`.
//
// Composes a 200×60 canvas with 8 panes (calendars and event logs with 500 events each),
// the way the dashboard does on every input, and reports medians and p95 over many runs.

import CanvasCore
import CanvasUI
import Foundation
import Logging
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
    return try CanvasHost(
        layout: LayoutData(name: "bench", panes: panes, focused: 1), catalog: .builtIn, bus: bus, clock: clock,
        theme: .dark, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }), size: size
    )
}

func measure(_ name: String, iterations requested: Int, _ body: () -> Void) {
    let iterations = ProcessInfo.processInfo.environment["TC_BENCH_ITERATIONS"].flatMap(Int.init) ?? requested
    for _ in 0..<min(100, iterations) { body() }  // warm up
    var samples: [Duration] = []
    samples.reserveCapacity(iterations)
    let clock = ContinuousClock()
    for _ in 0..<iterations { samples.append(clock.measure(body)) }
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
        measure("compose full frame", iterations: 2_000) { _ = host.compose() }
        let before = host.compose()
        host.handle(.key(.right))
        let after = host.compose()
        measure("diff after one arrow key", iterations: 2_000) { _ = after.changes(since: before) }
        measure("arrow key: handle + compose + diff", iterations: 2_000) {
            let previous = host.compose()
            host.handle(.key(.right))
            _ = host.compose().changes(since: previous)
        }
        let cells = after.changes(since: before).reduce(0) { $0 + $1.cells.count }
        print("cells written for that arrow key: \(cells)\n")
    }
}

try MainActor.assumeIsolated { try main() }
