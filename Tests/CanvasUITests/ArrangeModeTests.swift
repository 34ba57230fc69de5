import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: arrange mode")
struct ArrangeModeTests {
    /// Pane 1 in the top left with free space around it, pane 2 the right half.
    static let roomy = [pane(1, .probe, 0, 0, 4, 6), pane(2, .probe, 6, 0, 6, 12)]

    static func arranging(_ panes: [Pane] = roomy, recorder: Recorder = Recorder()) throws -> CanvasHost {
        let host = try makeHost(panes, focused: 1, recorder: recorder)
        host.press(.ctrl("e"))
        return host
    }

    static func steps(_ host: CanvasHost) -> [String] {
        host.bus.log.events.filter { $0.name == LayoutChanged.name }.map(\.summary)
    }

    /// The frame label the focused pane shows at the bottom, e.g. `1,0 4×6`.
    static func label(_ host: CanvasHost) -> String? {
        let screen = host.screen
        guard let focused = host.manager.focusedPane else { return nil }
        let row = screen[host.state.cellRect(of: focused).maxY - 1]
        let pattern = /━ (\d+,\d+ \d+×\d+) ━/
        return row.firstMatch(of: pattern).map { String($0.1) }
    }

    @Test func ctrlEEntersAndEnterOrEscLeaves() throws {
        let host = try makeHost(halves)
        host.press(.ctrl("e"))
        #expect(host.statusBar.hasPrefix(" ARRANGE "))
        host.press(.enter)
        #expect(host.statusBar.hasPrefix(" NORMAL "))
        #expect(Self.label(host) == nil)
        host.press(.ctrl("e"), .escape)
        #expect(host.statusBar.hasPrefix(" NORMAL "))
    }

    @Test func arrowsMoveTheFocusedPane() throws {
        let recorder = Recorder()
        let host = try Self.arranging(recorder: recorder)
        #expect(Self.label(host) == "0,0 4×6")
        host.press(.right)
        #expect(Self.label(host) == "1,0 4×6")
        host.press(.down, .down)
        #expect(Self.label(host) == "1,2 4×6")
        host.press(.up, .left)
        #expect(Self.label(host) == "0,1 4×6")
        #expect(Self.steps(host) == ["move", "move", "move", "move", "move"])
        #expect(recorder.received.isEmpty, "arrange keys must not reach widgets")
        // On screen: 60 columns × 19 rows of canvas, so one grid unit is 5 columns and 1–2 rows.
        let rect = host.state.cellRect(of: host.manager.focusedPane!)
        #expect(rect == Rect(x: 0, y: 1, width: 20, height: 10))
        #expect(host.screen[0].hasPrefix(padded("", 30) + "┌─ 2 Probe"))
        #expect(host.screen[1].hasPrefix("┏━ 1 Probe ━━━━━━━━┓"))
    }

    @Test func movingOntoAnotherPaneSwapsThem() throws {
        let host = try Self.arranging(halves)
        host.press(.right)
        #expect(Self.label(host) == "6,0 6×12")
        #expect(host.screen[0].hasPrefix("┌─ 2 Probe ─"))
        #expect(host.screen[0].contains("┏━ 1 Probe ━"))
    }

    @Test func shiftArrowsResize() throws {
        let host = try Self.arranging()
        host.press(.shift(.right))
        #expect(Self.label(host) == "0,0 5×6")
        host.press(.shift(.down))
        #expect(Self.label(host) == "0,0 5×7")
        host.press(.shift(.left), .shift(.up))
        #expect(Self.label(host) == "0,0 4×6")
        #expect(Self.steps(host) == ["resize", "resize", "resize", "resize"])
    }

    @Test func growingIntoANeighbourShrinksIt() throws {
        let host = try Self.arranging(halves)
        host.press(.shift(.right))
        #expect(Self.label(host) == "0,0 7×12")
        #expect(host.manager.pane(2)?.frame == Rect(x: 7, y: 0, width: 5, height: 12))
    }

    @Test func uUndoesAndCtrlRRedoes() throws {
        let host = try Self.arranging()
        host.press(.right, .shift(.right))
        #expect(Self.label(host) == "1,0 5×6")
        host.press(.char("u"))
        #expect(Self.label(host) == "1,0 4×6")
        host.press(.char("u"))
        #expect(Self.label(host) == "0,0 4×6")
        host.press(.ctrl("r"))
        #expect(Self.label(host) == "1,0 4×6")
        host.press(.ctrl("r"))
        #expect(Self.label(host) == "1,0 5×6")
        #expect(Self.steps(host) == ["move", "resize", "undo", "undo", "redo", "redo"])
    }

    @Test func aAndEnterAddsTheHighlightedWidget() throws {
        let host = try Self.arranging()
        host.press(.char("a"))
        #expect(host.screen.contains { $0.contains("Add a widget") })
        host.press(.down, .enter)
        #expect(host.mode == .arrange)
        #expect(host.manager.panes.count == 3)
        #expect(host.manager.focusedPane?.app == .typing)
        let screen = host.screen
        #expect(!screen.contains { $0.contains("Add a widget") })
        #expect(screen.contains { $0.contains("┏━ 3 Typing ━") })
        #expect(screen.contains { $0.contains("┃Typing body") })
        #expect(Self.steps(host) == ["add Typing"])
    }

    @Test func aDigitPicksACatalogEntryAndEscCancels() throws {
        let host = try Self.arranging()
        host.press(.char("a"), .char("4"))
        #expect((host.overlay as? CatalogOverlay)?.selected == 3)
        host.press(.escape)
        #expect(host.mode == .arrange && host.overlay == nil)
        #expect(host.manager.panes.count == 2)
        host.press(.char("a"), .char("4"), .enter)
        #expect(host.screen.contains { $0.contains(" 3 A very long") })
    }

    @Test func addingToAFullCanvasSplitsTheFocusedPane() throws {
        let host = try Self.arranging(halves)
        host.press(.char("a"), .enter)
        #expect(host.manager.panes.map(\.frame) == [
            Rect(x: 0, y: 0, width: 6, height: 6), Rect(x: 6, y: 0, width: 6, height: 12), Rect(x: 0, y: 6, width: 6, height: 6),
        ])
        #expect(Self.label(host) == "0,6 6×6")
    }

    @Test func xThenYRemovesTheFocusedPane() throws {
        let host = try Self.arranging()
        host.press(.char("x"), .char("y"))
        #expect(host.mode == .arrange)
        #expect(host.manager.panes.map(\.id) == [2])
        let screen = host.screen
        #expect(!screen.contains { $0.contains("Remove pane") })
        #expect(screen[0].hasPrefix(padded("", 30) + "┏━ 1 Probe ━"))
        #expect(Self.steps(host) == ["remove"])

        host.press(.char("u"))
        #expect(host.manager.panes.map(\.id) == [1, 2])
        #expect(host.screen[0].hasPrefix("┏━ 1 Probe ━"))
        #expect(host.screen[0].contains("┌─ 2 Probe ─"))
    }

    @Test func xThenAnyOtherKeyKeepsThePane() throws {
        for key in [Key.char("n"), .escape, .enter, .char("x")] {
            let host = try Self.arranging()
            host.press(.char("x"), key)
            #expect(host.mode == .arrange)
            #expect(host.manager.panes.count == 2, "after x \(key)")
            #expect(Self.steps(host).isEmpty)
        }
    }

    @Test func tabMovesFocusInArrangeMode() throws {
        let host = try Self.arranging()
        host.press(.tab)
        #expect(Self.label(host) == "6,0 6×12")
        host.press(.shift(.left))
        #expect(Self.label(host) == "6,0 5×12")
    }
}
