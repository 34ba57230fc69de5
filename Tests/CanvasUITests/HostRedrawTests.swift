import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
import Synchronization
import Testing

/// A frame redraws only the panes that changed: a key redraws the pane it went to, not the
/// others; what every pane is drawn with (the theme, the day) redraws them all.
@MainActor
@Suite("Redrawing only what changed")
struct HostRedrawTests {
    @Test func aKeyRedrawsOnlyThePaneItWentTo() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 2, recorder: recorder)
        _ = host.compose()
        let before = recorder.renders
        host.press(.char("k"), .char("j"))
        let frame = host.compose()
        #expect(recorder.renders[1] == before[1])
        #expect(recorder.renders[2] == (before[2] ?? 0) + 1)
        // What the unchanged pane shows is what it showed.
        #expect(frame.lines.contains { $0.contains("Probe body") })
    }

    @Test func aChangeOfFocusRedrawsTheTwoPanesItMovedBetween() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 1, recorder: recorder)
        _ = host.compose()
        let before = recorder.renders
        host.press(.tab)
        _ = host.compose()
        #expect(recorder.renders[1] == (before[1] ?? 0) + 1)
        #expect(recorder.renders[2] == (before[2] ?? 0) + 1)
    }

    @Test func anotherThemeRedrawsEveryPane() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, recorder: recorder)
        _ = host.compose()
        let before = recorder.renders
        var light = Theme.dark
        light.name = "other"
        light[.text] = Style(foreground: .ansi(1))
        host.deliver(.themeChosen(light))
        let frame = host.compose()
        #expect(recorder.renders[1] == (before[1] ?? 0) + 1)
        #expect(recorder.renders[2] == (before[2] ?? 0) + 1)
        #expect(frame == host.compose())
    }

    @Test func aNewDayRedrawsEveryPane() throws {
        let recorder = Recorder()
        let now = Mutex(Date(timeIntervalSince1970: Double(Fixed.today.daysSinceEpoch * 86_400 + 23 * 3_600)))
        let clock = CanvasClock(now: { now.withLock { $0 } }, timeZone: TimeZone(identifier: "UTC")!)
        let host = try CanvasHost(layout: LayoutData(name: "test", panes: halves, focused: 1), catalog: .probes(recorder),
                                  bus: EventBus(now: clock.now), clock: clock, theme: .dark, logger: Fixed.logger,
                                  size: Size(width: 60, height: 20))
        host.start()
        _ = host.compose()
        let before = recorder.renders
        _ = host.compose()
        #expect(recorder.renders == before)
        now.withLock { $0 += 2 * 3_600 }
        _ = host.compose()
        #expect(recorder.renders[1] == (before[1] ?? 0) + 1)
        #expect(recorder.renders[2] == (before[2] ?? 0) + 1)
    }

    @Test func aCellHoldsNoHeapObject() {
        // A frame of cells is copied, compared and freed as plain memory.
        #expect(_isPOD(Cell.self))
    }
}
