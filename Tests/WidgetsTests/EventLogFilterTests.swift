import CanvasCore
import CanvasUI
import Foundation
import Testing
@testable import Widgets

@MainActor
@Suite("Event Log: the filter setting")
struct EventLogFilterTests {
    @Test func theFilterCyclesThroughTheSources() throws {
        var widget = EventLogWidget()
        var seen = [widget.settings.first?.value]
        for _ in 0..<5 {
            try widget.cycleSetting("filter")
            seen.append(widget.settings.first?.value)
        }
        #expect(seen == ["*", "calendar.*", "todo.*", "chat.*", "canvas.*", "*"])
        #expect(widget.settings.first?.label == "Show events")
        try widget.cycleSetting("filter")
        #expect(widget.config == ["filter": "calendar.*"])
    }

    @Test func anUnknownFilterInConfigFallsBackToAll() {
        #expect(EventLogWidget(config: ["filter": "nonsense"]).config == ["filter": "*"])
        #expect(EventLogWidget(config: ["filter": "chat.*"]).config == ["filter": "chat.*"])
    }

    static func host(filter: String) throws -> CanvasHost {
        let bus = EventBus(now: Fixed.clock.now)
        bus.publish(LayoutChanged(step: "move"))
        bus.publish(DateSelected(date: date("2026-11-23")))
        let layout = LayoutData(name: "log", panes: [
            Pane(id: 1, app: .eventLog, frame: Rect(x: 0, y: 0, width: 12, height: 12), config: ["filter": filter]),
        ])
        return try makeHost(layout, size: Size(width: 60, height: 10), bus: bus)
    }

    static func lines(_ host: CanvasHost) -> [String] {
        host.screen.dropFirst().dropLast(2).map { String($0.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func aFilteredLogShowsOnlyItsSource() throws {
        let host = try Self.host(filter: "calendar.*")
        #expect(Self.lines(host) == ["12:00:00 calendar.date.selected 2026-11-23"])
        host.publish(LayoutChanged(step: "resize"))
        host.publish(DateSelected(date: date("2026-11-24")))
        host.publish(LayoutChanged(step: "undo"))
        #expect(Self.lines(host) == ["12:00:00 calendar.date.selected 2026-11-24 ×2"])
    }

    @Test func changingTheFilterInTheSettingsAppliesToNewEvents() throws {
        let host = try Self.host(filter: "canvas.*")
        #expect(Self.lines(host) == ["12:00:00 canvas.layout.changed move"])
        host.press(.ctrl("e"), .char("s"))
        #expect(host.screen.contains { $0.contains("┃ Show events: canvas.* ") })
        host.press(.enter)
        #expect(host.screen.contains { $0.contains("┃ Show events: * ") })
        host.press(.escape, .enter)

        host.publish(DateSelected(date: date("2026-11-25")))
        host.publish(LayoutChanged(step: "resize"))
        #expect(Self.lines(host) == [
            "12:00:00 canvas.layout.changed move",
            "12:00:00 calendar.date.selected 2026-11-25",
            "12:00:00 canvas.layout.changed resize",
        ])
        #expect(host.currentLayout().panes[0].config == ["filter": "*"])
    }

    @Test func narrowingTheFilterInTheSettingsHidesOtherSources() throws {
        let host = try Self.host(filter: "*")
        host.press(.ctrl("e"), .char("s"), .enter, .escape, .enter)
        host.publish(LayoutChanged(step: "resize"))
        host.publish(DateSelected(date: date("2026-11-26")))
        // The resize is not shown, so the two selections are one run in this view.
        #expect(Self.lines(host) == [
            "12:00:00 canvas.layout.changed move",
            "12:00:00 calendar.date.selected 2026-11-26 ×2",
        ])
    }
}
