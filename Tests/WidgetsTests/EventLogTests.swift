import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
import Testing
@testable import Widgets

@MainActor
@Suite("Event Log: what it shows")
struct EventLogTests {
    static func mounted(config: WidgetValues = [:], state: WidgetValues = [:], bus: EventBus, height: Int = 6) throws -> EventLogWidget {
        var widget = EventLogWidget(config: config, state: state)
        _ = try widget.mount(context(pane: 9, bus: bus))
        widget.resize(to: Size(width: 50, height: height))
        return widget
    }

    static func text(_ widget: EventLogWidget, height: Int = 6) -> [String] {
        render(widget, size: Size(width: 50, height: height)).text.split(separator: "\n").map(String.init)
    }

    @Test func anEmptyBusSaysSo() throws {
        let widget = try Self.mounted(bus: EventBus(now: Fixed.clock.now))
        let buffer = render(widget, size: Size(width: 20, height: 3))
        #expect(buffer.lines == ["No events yet.      ", "                    ", "                    "])
        #expect(buffer[0, 0].style == Theme.dark[.muted])
    }

    @Test func itShowsWhatTheBusLoggedBeforeItWasMounted() throws {
        let bus = EventBus(now: Fixed.clock.now)
        bus.publish(LayoutChanged(step: "move"))
        bus.publish(PaneFocused(pane: 2, title: "2 Calendar"), from: nil)
        let widget = try Self.mounted(bus: bus)
        #expect(Self.text(widget) == [
            "12:00:00 canvas.layout.changed move",
            "12:00:00 canvas.pane.focused 2 Calendar",
        ])
        let buffer = render(widget, size: Size(width: 50, height: 6))
        #expect(buffer[0, 0].style == Theme.dark[.muted])
        #expect(buffer[9, 0].style == Theme.dark[.accent])
        #expect(buffer[31, 0].style == Theme.dark[.text])
    }

    /// Issue 55, item 1: lines were cut bare (`chat.messages.loade`).
    @Test func aLineWiderThanThePaneEndsWithAMark() throws {
        let bus = EventBus(now: Fixed.clock.now)
        bus.publish(PaneFocused(pane: 2, title: "2 Calendar"), from: nil)
        let widget = try Self.mounted(bus: bus)
        let narrow = render(widget, size: Size(width: 30, height: 2)).lines
        #expect(narrow[0] == "12:00:00 canvas.pane.focused …", "\(narrow)")
        #expect(render(widget, size: Size(width: 40, height: 2)).lines[0] == "12:00:00 canvas.pane.focused 2 Calendar ")
    }

    @Test func aRunOfSelectionsIsOneLineWithTheLatestDateAndACount() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        for day in ["2026-11-23", "2026-11-24", "2026-11-25"] {
            _ = try widget.receive(CanvasEvent(sequence: 1, source: 1, time: Fixed.clock.now(), payload: DateSelected(date: date(day))))
        }
        #expect(Self.text(widget) == ["12:00:00 calendar.date.selected 2026-11-25 ×3"])
    }

    @Test func selectionsFromDifferentPanesAreNotCollapsed() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        _ = try widget.receive(CanvasEvent(sequence: 1, source: 1, time: Fixed.clock.now(), payload: DateSelected(date: date("2026-11-23"))))
        _ = try widget.receive(CanvasEvent(sequence: 2, source: 3, time: Fixed.clock.now(), payload: DateSelected(date: date("2026-11-24"))))
        #expect(Self.text(widget) == [
            "12:00:00 calendar.date.selected 2026-11-23",
            "12:00:00 calendar.date.selected 2026-11-24",
        ])
    }

    @Test func differentLayoutStepsAreSeparateLinesAndRepeatsAreCounted() throws {
        let bus = EventBus(now: Fixed.clock.now)
        for step in ["move", "resize", "resize", "move"] { bus.publish(LayoutChanged(step: step)) }
        let widget = try Self.mounted(bus: bus)
        #expect(Self.text(widget) == [
            "12:00:00 canvas.layout.changed move",
            "12:00:00 canvas.layout.changed resize ×2",
            "12:00:00 canvas.layout.changed move",
        ])
    }

    @Test func itFollowsNewEventsInAHost() throws {
        let layout = LayoutData(name: "log", panes: [Pane(id: 1, app: .eventLog, frame: Rect(x: 0, y: 0, width: 12, height: 12))])
        let host = try makeHost(layout, size: Size(width: 60, height: 8))
        #expect(host.screen[1] == "┃" + padded("No events yet.", 58) + "┃")
        host.publish(LayoutChanged(step: "load"))
        #expect(host.screen[1] == "┃" + padded("12:00:00 canvas.layout.changed load", 58) + "┃")
        for step in 1...7 { host.publish(LayoutChanged(step: "step \(step)")) }
        let screen = host.screen
        // Five rows inside: the newest five, newest at the bottom.
        #expect(screen[1...5].map { $0.dropFirst().prefix(40).trimmingCharacters(in: .whitespaces) } == (3...7).map { "12:00:00 canvas.layout.changed step \($0)" })
        #expect(screen[0].hasPrefix("┏━ 1 Event Log ━"))
    }

    @Test func theLogIsBoundedTo500Lines() throws {
        let bus = EventBus(logCapacity: 1000, now: Fixed.clock.now)
        for step in 1...600 { bus.publish(LayoutChanged(step: "step \(step)")) }
        var widget = try Self.mounted(bus: bus, height: 5)
        #expect(widget.entries.count == 500)
        _ = try widget.handle(.key(Key(.home)))
        #expect(widget.title == "Event Log ↑495")
        #expect(Self.text(widget, height: 5).first == "12:00:00 canvas.layout.changed step 101")

        for step in 601...650 {
            _ = try widget.receive(CanvasEvent(sequence: step, source: nil, time: Fixed.clock.now(), payload: LayoutChanged(step: "step \(step)")))
        }
        #expect(widget.entries.count == 500)
        _ = try widget.handle(.key(Key(.end)))
        #expect(Self.text(widget, height: 5).last == "12:00:00 canvas.layout.changed step 650")
        _ = try widget.handle(.key(Key(.home)))
        #expect(Self.text(widget, height: 5).first == "12:00:00 canvas.layout.changed step 151")
    }
}
