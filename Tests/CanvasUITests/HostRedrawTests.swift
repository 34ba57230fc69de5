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
        let (before, partsBefore) = (recorder.renders, recorder.partialRenders)
        host.press(.char("k"), .char("j"))
        let frame = host.compose()
        #expect(recorder.renders == before)
        #expect(recorder.partialRenders[1] == partsBefore[1])
        #expect(recorder.partialRenders[2] == (partsBefore[2] ?? 0) + 1, "drawn again over its last drawing, once for both keys")
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

/// The frame composed step by step, each pane drawn again only when it changed, is the frame
/// composed whole; and a key in one pane makes only that pane's rows (and the status bar's) to
/// compare with the screen.
@MainActor
@Suite("Composing only what changed")
struct HostDamageTests {
    /// Two probes one above the other, each half of the grid's height.
    static let stacked = [pane(1, .probe, 0, 0, 12, 6), pane(2, .typing, 0, 6, 12, 6)]

    @Test func aKeyInOnePaneDamagesOnlyTheRowsItsWidgetDrewAgain() throws {
        let host = try makeHost(Self.stacked, focused: 2, size: Size(width: 40, height: 21))
        _ = host.composeChanges()
        host.press(.char("k"))
        let lower = host.state.cellRect(of: host.manager.panes[1])
        // The typed row (the third inside the box); its box, its title and the status bar are as they were.
        let (frame, rows) = host.composeChanges()
        #expect(rows.ranges == [(lower.minY + 3)..<(lower.minY + 4)])
        #expect(frame.lines[lower.minY + 3].contains("k"))
        #expect(host.composeChanges().rows.ranges.isEmpty, "nothing changed: nothing to compare")
        host.press(.tab)
        let moved = host.composeChanges().rows.ranges
        #expect(moved.first.map { $0.lowerBound == 0 && $0.upperBound >= lower.maxY } == true, "the focus moved: both boxes, \(moved)")
        host.deliver(.notice(.info("Saved")))
        #expect(host.composeChanges().rows.ranges == [20..<21], "the status bar says something else")
    }

    /// Every step of arranging, focusing, zooming, overlays, themes and sizes, composed after
    /// each one, equals the same steps composed once at the end by a host that never drew.
    @Test func composingStepByStepEqualsComposingWhole() throws {
        var other = Theme.dark
        other.name = "other"
        other[.border] = Style(foreground: .ansi(2))
        let steps: [HostMessage] = [
            .input(.key(.char("k"))), .input(.key(.tab)), .input(.key(.ctrl("e"))), .input(.key(.right)),
            .input(.key(.shift(.down))), .input(.key(.escape)), .input(.key(.alt(.char("z")))), .input(.key(.char("j"))),
            .input(.key(.alt(.char("z")))), .input(.key(.ctrl("p"))), .input(.key(.char("z"))), .input(.key(.escape)),
            .input(.resize(Size(width: 50, height: 15))), .themeChosen(other), .input(.key(.tab)),
            .input(.resize(Size(width: 12, height: 4))), .input(.resize(Size(width: 44, height: 18))), .input(.key(.char("?"))),
            .input(.key(.escape)), .input(.key(.ctrl("e"))), .input(.key(.char("x"))), .input(.key(.char("y"))),
            .input(.key(.escape)), .input(.key(.tab)), .input(.key(.char("m"))), .input(.key(.char("n"))), .input(.key(.tab)),
            .input(.key(.char("o"))),
        ]
        let stepping = try makeHost(Self.stacked, focused: 1, size: Size(width: 40, height: 21))
        _ = stepping.compose()
        for count in 1...steps.count {
            stepping.deliver(steps[count - 1])
            let whole = try makeHost(Self.stacked, focused: 1, size: Size(width: 40, height: 21))
            for step in steps.prefix(count) { whole.deliver(step) }
            // As text with its escapes: a difference reads as the rows that differ.
            #expect(stepping.compose().ansiLines() == whole.compose().ansiLines(), "after \(steps[count - 1])")
        }
    }
}
