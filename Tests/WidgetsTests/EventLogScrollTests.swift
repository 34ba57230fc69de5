import CanvasCore
import CanvasUI
import Foundation
import Testing
@testable import Widgets

@MainActor
@Suite("Event Log: scrolling back")
struct EventLogScrollTests {
    /// An Event Log alone on a 60×8 screen (5 rows inside) over twelve distinct events.
    static func host(state: WidgetValues = [:], size: Size = Size(width: 60, height: 8)) throws -> CanvasHost {
        let bus = EventBus(now: Fixed.clock.now)
        for step in 1...12 { bus.publish(LayoutChanged(step: "step \(step)")) }
        let layout = LayoutData(name: "log", panes: [
            Pane(id: 1, app: .eventLog, frame: Rect(x: 0, y: 0, width: 12, height: 12), state: state),
        ])
        return try makeHost(layout, size: size, bus: bus)
    }

    /// The step numbers of the visible lines, top to bottom.
    static func visibleSteps(_ host: CanvasHost) -> [Int] {
        host.screen.compactMap { line in
            line.firstMatch(of: /step (\d+)/).flatMap { Int($0.1) }
        }
    }

    static func title(_ host: CanvasHost) -> String {
        let top = host.screen[0]
        return String(top.dropFirst(3).prefix { $0 != "━" }).trimmingCharacters(in: .whitespaces)
    }

    @Test func upPageUpHomeAndEndScrollAndTheTitleCountsTheLinesAbove() throws {
        let host = try Self.host()
        #expect(Self.visibleSteps(host) == [8, 9, 10, 11, 12])
        #expect(Self.title(host) == "1 Event Log")

        host.press(.up)
        #expect(Self.visibleSteps(host) == [7, 8, 9, 10, 11])
        #expect(Self.title(host) == "1 Event Log ↑1")

        host.press(Key(.pageUp))
        #expect(Self.visibleSteps(host) == [3, 4, 5, 6, 7])
        #expect(Self.title(host) == "1 Event Log ↑5")

        host.press(Key(.home))
        #expect(Self.visibleSteps(host) == [1, 2, 3, 4, 5])
        #expect(Self.title(host) == "1 Event Log ↑7")
        host.press(.up)
        #expect(Self.title(host) == "1 Event Log ↑7")

        host.press(.down, Key(.pageDown))
        #expect(Self.visibleSteps(host) == [6, 7, 8, 9, 10])
        #expect(Self.title(host) == "1 Event Log ↑2")

        host.press(Key(.end))
        #expect(Self.visibleSteps(host) == [8, 9, 10, 11, 12])
        #expect(Self.title(host) == "1 Event Log")
        host.press(.down)
        #expect(Self.title(host) == "1 Event Log")
    }

    @Test func theWheelScrollsThreeLines() throws {
        let host = try Self.host()
        _ = host.compose()
        host.input(.mouse(MouseEvent(.wheelUp, at: Point(x: 10, y: 3))))
        #expect(Self.title(host) == "1 Event Log ↑3")
        host.input(.mouse(MouseEvent(.wheelDown, at: Point(x: 10, y: 3))))
        #expect(Self.title(host) == "1 Event Log")
    }

    @Test func aNewEventKeepsAScrolledViewStill() throws {
        let host = try Self.host()
        _ = host.compose()
        host.press(Key(.home))
        host.publish(LayoutChanged(step: "step 13"))
        #expect(Self.visibleSteps(host) == [1, 2, 3, 4, 5])
        #expect(Self.title(host) == "1 Event Log ↑8")
        host.press(Key(.end))
        #expect(Self.visibleSteps(host) == [9, 10, 11, 12, 13])
    }

    @Test func theScrollPositionIsSavedAndRestored() throws {
        let host = try Self.host()
        host.press(.up, .up)
        let saved = host.currentLayout()
        #expect(saved.panes[0].state == ["scrollBack": "2"])

        let again = try Self.host(state: saved.panes[0].state)
        #expect(Self.visibleSteps(again) == [6, 7, 8, 9, 10])
        #expect(Self.title(again) == "1 Event Log ↑2")
    }

    @Test func theFirstFrameAlreadyFitsARestoredPositionToThePane() throws {
        // Twelve lines fit a 16-row pane: nothing is above, so the first frame shows all of them.
        let host = try Self.host(state: ["scrollBack": "3"], size: Size(width: 60, height: 16))
        #expect(Self.visibleSteps(host) == Array(1...12))
        #expect(Self.title(host) == "1 Event Log")
    }

    @Test func growingThePaneShowsMoreAtOnce() throws {
        let host = try Self.host()
        _ = host.compose()
        host.press(Key(.home))
        #expect(Self.title(host) == "1 Event Log ↑7")
        host.input(.resize(Size(width: 60, height: 12)))
        #expect(Self.visibleSteps(host) == Array(1...9))
        #expect(Self.title(host) == "1 Event Log ↑3")
    }
}
