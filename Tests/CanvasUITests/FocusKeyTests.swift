import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: focus keys")
struct FocusKeyTests {
    static let columns = [pane(1, .probe, 0, 0, 4, 12), pane(2, .probe, 4, 0, 4, 12), pane(3, .probe, 8, 0, 4, 12)]
    static let quarters = [
        pane(1, .probe, 0, 0, 6, 6), pane(2, .probe, 6, 0, 6, 6),
        pane(3, .probe, 0, 6, 6, 6), pane(4, .probe, 6, 6, 6, 6),
    ]

    /// The numbers of the panes drawn with the heavy (focused) border.
    static func heavyPanes(_ host: CanvasHost) -> [Int] {
        let frame = host.compose()
        return host.manager.panes.compactMap { pane in
            let rect = host.state.cellRect(of: pane)
            return frame[rect.minX, rect.minY].symbol == "┏" ? host.manager.number(of: pane.id) : nil
        }
    }

    @Test func tabAndShiftTabCycleInNumberOrder() throws {
        let host = try makeHost(Self.columns)
        var seen: [[Int]] = []
        for key in [Key.tab, .tab, .tab, .backTab, .backTab, .shift(.tab)] {
            host.press(key)
            seen.append(Self.heavyPanes(host))
        }
        #expect(seen == [[2], [3], [1], [3], [2], [1]])
    }

    @Test func altArrowsFocusTheNeighbourInThatDirection() throws {
        let host = try makeHost(Self.quarters)
        var seen: [PaneID?] = []
        for direction in [KeyCode.right, .down, .left, .up, .up, .left] {
            host.press(.alt(direction))
            seen.append(host.manager.focusedPaneID)
        }
        #expect(seen == [2, 4, 3, 1, 1, 1])
        #expect(Self.heavyPanes(host) == [1])
    }

    @Test func altDigitFocusesPaneN() throws {
        let host = try makeHost(Self.quarters)
        host.press(.char("3", .alt))
        #expect(Self.heavyPanes(host) == [3])
        host.press(.char("9", .alt), .char("0", .alt))
        #expect(Self.heavyPanes(host) == [3])
        host.press(.char("2", .alt))
        #expect(Self.heavyPanes(host) == [2])
    }

    @Test func focusKeysAreNotPassedToWidgets() throws {
        let recorder = Recorder()
        let host = try makeHost(Self.quarters, recorder: recorder)
        host.press(.tab, .backTab, .alt(.right), .char("2", .alt))
        #expect(recorder.received.isEmpty)
    }

    @Test func aFocusChangeIsPublishedWithThePaneTitle() throws {
        let host = try makeHost(Self.columns)
        host.press(.tab, .alt(.left), .alt(.left))
        let focused = host.bus.log.events.filter { $0.name == PaneFocused.name }
        #expect(focused.map(\.summary) == ["2 Probe", "1 Probe"])
    }

    @Test func otherKeysGoToTheFocusedWidget() throws {
        let recorder = Recorder()
        let host = try makeHost(Self.columns, recorder: recorder)
        host.press(.char("k"), .tab, .char("j"), .escape, .down)
        #expect(recorder.keys(of: 1) == [.char("k")])
        #expect(recorder.keys(of: 2) == [.char("j"), .escape, .down])
    }
}
