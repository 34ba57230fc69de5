import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: pane borders, titles and the status bar")
struct HostChromeTests {
    @Test func twoPanesAt60x20() throws {
        let host = try makeHost(halves)
        let screen = host.screen
        #expect(screen.count == 20)
        #expect(screen[0] == "┏━ 1 Probe " + String(repeating: "━", count: 18) + "┓" + "┌─ 2 Probe " + String(repeating: "─", count: 18) + "┐")
        #expect(screen[1] == "┃" + padded("Probe body", 28) + "┃│" + padded("Probe body", 28) + "│")
        #expect(screen[2] == "┃" + padded("colour red", 28) + "┃│" + padded("colour red", 28) + "│")
        for row in 3...17 {
            #expect(screen[row] == "┃" + padded("", 28) + "┃│" + padded("", 28) + "│")
        }
        #expect(screen[18] == "┗" + String(repeating: "━", count: 28) + "┛" + "└" + String(repeating: "─", count: 28) + "┘")
        // A hint that does not fit is left out whole; the layout name stays flush right with its padding.
        #expect(screen[19] == padded(" NORMAL  ^E arrange Tab focus ^P commands ? help", 54) + " test ")
    }

    @Test func theFocusedPaneHasTheHeavyBorderAndFocusedStyles() throws {
        let host = try makeHost(halves, focused: 2)
        let frame = host.compose()
        #expect(frame.lines[0].hasPrefix("┌─ 1 Probe ─"))
        #expect(frame.lines[0].hasSuffix("┏━ 2 Probe " + String(repeating: "━", count: 18) + "┓"))
        #expect(frame[0, 0].style == host.theme[.border])
        #expect(frame[30, 0].style == host.theme[.borderFocused])
        #expect(frame[33, 0].symbol == "2")
        #expect(frame[33, 0].style == host.theme[.titleFocused])
        #expect(frame[3, 0].style == host.theme[.title])
    }

    /// Issue 55, item 1: cut with a mark (it was cut bare, `… widget title┐`).
    @Test func aLongTitleIsCutWithAMarkInsideTheCorners() throws {
        let host = try makeHost([pane(1, .longTitle, 0, 0, 6, 12), pane(2, .probe, 6, 0, 6, 12)], focused: 2)
        let top = host.screen[0]
        #expect(top.hasPrefix("┌─ 1 A very long widget titl…┐┏━ 2 Probe ━"), "\(top)")
    }

    /// Issue 55, item 1: catalog rows were cut bare.
    @Test func anOverlayRowWiderThanItsBoxEndsWithAMark() throws {
        let host = try makeHost(halves, size: Size(width: 30, height: 20))
        host.press(.ctrl("e"), .char("a"))
        let rows = host.screen.filter { $0.contains("Probe 1.0.0") }
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("…┃") }, "\(host.screen)")
    }

    /// Issue 55, item 7: on a team server nothing said which server and which user.
    @Test func onATeamServerTheStatusBarSaysWhoAndWhere() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 20), start: HostStart(account: "ann@team.example:7450"))
        #expect(host.statusBar.hasSuffix(" test · ann@team.example:7450 "), "\(host.statusBar)")
    }

    @Test func theStatusBarShowsTheNormalModeHintsAndTheLayoutName() throws {
        let host = try makeHost(halves, size: Size(width: 80, height: 20))
        let hints = " NORMAL  ^E arrange Tab focus ^P commands ? help q quit Alt+←↑↓→ focus dir"
        #expect(host.statusBar == padded(hints, 74) + " test ")
        let frame = host.compose()
        #expect(frame[1, 19].style == host.theme[.statusMode])
        #expect(frame[10, 19].style == host.theme[.statusKey])
        #expect(frame[12, 19].style == host.theme[.statusBar])
    }

    @Test func theStatusBarShowsTheArrangeModeHints() throws {
        let host = try makeHost(halves, size: Size(width: 120, height: 20))
        host.press(.ctrl("e"))
        let hints = " ARRANGE  ←↑↓→ move Shift+←↑↓→ resize a add x remove s settings u undo ^R redo Enter done Tab focus ^P commands"
        #expect(host.statusBar == padded(hints, 114) + " test ")
    }

    @Test func arrangeModeLabelsTheFocusedFrameWithItsGridPosition() throws {
        let host = try makeHost([pane(1, .probe, 0, 0, 5, 12), pane(2, .probe, 5, 0, 7, 12)], focused: 2)
        host.press(.ctrl("e"))
        let frame = host.compose()
        let bottom = frame.lines[18]
        // Pane 2 spans columns 25…59 (5/12 and 12/12 of 60); its label ends one cell before the corner.
        #expect(bottom == "└" + String(repeating: "─", count: 23) + "┘" + "┗" + String(repeating: "━", count: 22) + " 5,0 7×12 ━┛")
        #expect(frame[25, 0].style == host.theme[.borderArranging])
        #expect(frame[0, 0].style == host.theme[.border])
    }

    @Test func theArrangeLabelFollowsFocusAndSteps() throws {
        let host = try makeHost([pane(1, .probe, 0, 0, 4, 6), pane(2, .probe, 6, 0, 6, 12)], focused: 1)
        host.press(.ctrl("e"))
        #expect(host.screen.contains { $0.contains(" 0,0 4×6 ") })
        host.press(.tab)
        #expect(!host.screen.contains { $0.contains(" 0,0 4×6 ") })
        #expect(host.screen.contains { $0.contains(" 6,0 6×12 ") })
    }
}
