import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: help, catalog, remove and settings overlays")
struct HostOverlayTests {
    @Test func helpOpensWithQuestionMarkOrF1AndEscClosesIt() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 40))
        host.press(.char("?"))
        var screen = host.screen
        #expect(screen.contains { $0.contains("┏━ Help ━") })
        #expect(screen.contains { $0.contains("┃ Everywhere ") })
        #expect(screen.contains { $0.contains("┃ Arrange mode (Ctrl-E) ") })
        #expect(screen.contains { $0.contains("   Tab                  Focus the next pane ") })
        #expect(screen.contains { $0.contains("   ? / F1               Help: every command and its keys ") })
        #expect(screen.contains { $0.contains("   q / Ctrl-Q / Ctrl-C  Quit, once the layout is saved ") })
        #expect(host.statusBar.hasPrefix(" NORMAL "))

        host.press(.escape)
        screen = host.screen
        #expect(!screen.contains { $0.contains("Help") })
        #expect(host.mode == .normal && host.overlay == nil)

        host.press(Key(.function(1)))
        #expect(host.screen.contains { $0.contains("┏━ Help ━") })
    }

    @Test func helpTallerThanTheTerminalScrollsToItsLastLine() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 16))
        host.press(.char("?"))
        var screen = host.screen
        #expect(screen.contains { $0.contains("┃ Everywhere ") })
        #expect(screen.contains { $0.contains("┃ Lines 1–11 of ") })
        #expect(!screen.contains { $0.contains("drag a corner") })

        host.press(Key(.pageDown))
        screen = host.screen
        #expect(screen.contains { $0.contains("┃ Lines 12–22 of ") })
        #expect(!screen.contains { $0.contains("┃ Everywhere ") })

        host.press(Key(.end))
        screen = host.screen
        #expect(screen.contains { $0.contains("   drag a corner        Resize the pane from its bottom-right corner (arrange mode) ") },
                "the last line after End")
        host.press(.down, .down)
        #expect(host.screen == screen, "nothing past the end")
        host.press(Key(.home))
        #expect(host.screen.contains { $0.contains("┃ Everywhere ") })
    }

    @Test func aTitleTooLongForTheTerminalWrapsUnderItself() throws {
        let host = try makeHost(halves, size: Size(width: 60, height: 40))
        host.press(.char("?"))
        for character in "arrange panes" { host.press(.char(character)) }
        let screen = host.screen
        #expect(screen.contains { $0.contains("┃   Ctrl-E  Arrange panes: move, resize, add, remove ┃") })
        host.input(.resize(Size(width: 40, height: 40)))
        let narrow = host.screen
        #expect(narrow.contains { $0.contains("┃   Ctrl-E  Arrange panes: move, ┃") })
        #expect(narrow.contains { $0.contains("┃           resize, add, remove  ┃") })
    }

    @Test func textThatFitsKeepsItsLeadingSpaces() {
        #expect(TextWrap.lines("  indented", width: 20) == ["  indented"])
        #expect(TextWrap.lines("one two three", width: 7) == ["one two", "three"])
        #expect(TextWrap.lines("", width: 5) == [""])
    }

    @Test func theLayoutPickerHighlightsTheCurrentLayoutAmongTheFilteredOnes() throws {
        let host = try makeHost(halves, name: "workshop")
        var picker = LayoutPicker()
        for character in "wo" { _ = picker.handle(.char(character), host.overlayContext) }
        let names = ["a", "b", "work", "workshop"].map { LayoutSummary(name: $0, paneCount: 2, updatedAt: nil, isPreset: false) }
        _ = picker.receive(.layoutsListed(names), host.overlayContext)
        #expect(picker.highlighted?.name == "workshop")
    }

    @Test func typingFiltersTheHelp() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 40))
        host.press(.char("?"))
        for character in "undo" { host.press(.char(character)) }
        let screen = host.screen
        #expect(screen.contains { $0.contains("┃ Filter: undo▏") })
        #expect(screen.contains { $0.contains("┃ Arrange mode (Ctrl-E) ") })
        #expect(screen.contains { $0.contains("   u  Undo the last arrangement step ") })
        #expect(!screen.contains { $0.contains("Focus the next pane") })
        #expect(!screen.contains { $0.contains("┃ Everywhere ") })
        for _ in 0..<4 { host.press(Key(.backspace)) }
        host.press(.char("z"), .char("q"), .char("x"))
        #expect(host.screen.contains { $0.contains("┃ No command matches. ") })
        #expect(host.overlay != nil, "q types into the filter")
    }

    @Test func helpOverArrangeModeReturnsToArrangeMode() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 30))
        host.press(.ctrl("e"), .char("?"))
        #expect(host.screen.contains { $0.contains("┏━ Help ━") })
        #expect(host.statusBar.hasPrefix(" ARRANGE "))
        host.press(.escape)
        #expect(host.mode == .arrange && host.overlay == nil)
        #expect(!host.screen.contains { $0.contains("Help") })
    }

    @Test func theCatalogListsEveryWidgetWithTheHighlightedOneSelected() throws {
        let host = try makeHost(halves, size: Size(width: 80, height: 24))
        host.press(.ctrl("e"), .char("a"))
        let frame = host.compose()
        let lines = frame.lines
        guard let top = lines.firstIndex(where: { $0.contains("┏━ Add a widget ━") }) else {
            Issue.record("no catalog overlay in \(lines)")
            return
        }
        #expect(lines[top + 1].contains("┃ 1 Probe 1.0.0 (probe) — Shows a line "))
        #expect(lines[top + 2].contains("┃ 2 Typing 2.1.0 (typing) — Captures text "))
        #expect(lines[top + 3].contains("┃ 3 Failing 0.1.0 (failing) — Throws on input "))
        #expect(lines[top + 4].contains("┃ 4 Long 1.0.0 (longtitle) — A long title "))
        #expect(lines[top + 5].contains("┗━"))
        #expect(host.statusBar.hasPrefix(" ARRANGE  ↑↓ choose Enter select Esc close "))

        let column = lines[top + 1].distance(from: lines[top + 1].startIndex, to: lines[top + 1].range(of: "1 Probe")!.lowerBound)
        #expect(frame[column, top + 1].style == host.theme[.selection])
        #expect(frame[column, top + 2].style == host.theme[.overlay])
        host.press(.down)
        let moved = host.compose()
        #expect(moved[column, top + 1].style == host.theme[.overlay])
        #expect(moved[column, top + 2].style == host.theme[.selection])
    }

    @Test func theRemoveConfirmationNamesThePane() throws {
        let host = try makeHost(halves, focused: 2)
        host.press(.ctrl("e"), .char("x"))
        let screen = host.screen
        #expect(screen.contains { $0.contains("┏━ Remove pane ━") })
        #expect(screen.contains { $0.contains("┃ Remove pane 2 Probe? ") })
        #expect(screen.contains { $0.contains("┃ y removes it (u undoes), any other key keeps it. ┃") })
        #expect(host.statusBar.hasPrefix(" ARRANGE  y remove n keep "))
    }

    @Test func theSettingsOverlayCyclesTheHighlightedSetting() throws {
        let host = try makeHost(halves, focused: 1)
        host.press(.ctrl("e"), .char("s"))
        var screen = host.screen
        #expect(screen.contains { $0.contains("┏━ Settings ━") })
        #expect(screen.contains { $0.contains("┃ Colour: red ") })
        #expect(screen.contains { $0.contains("┃ Enter changes the highlighted setting. ┃") })

        host.press(.enter)
        screen = host.screen
        #expect(screen.contains { $0.contains("┃ Colour: green ") })
        host.press(.char(" "))
        #expect(host.screen.contains { $0.contains("┃ Colour: blue ") })

        host.press(.escape, .enter)
        screen = host.screen
        #expect(!screen.contains { $0.contains("Settings") })
        #expect(screen[2].hasPrefix("┃colour blue "))
        #expect(screen[2].contains("│colour red "))
        #expect(host.currentLayout().panes[0].config == ["colour": "blue"])
    }

    @Test func overlaysIgnoreTheMouse() throws {
        let host = try makeHost(halves, focused: 1)
        host.press(.ctrl("e"), .char("a"))
        host.input(.mouse(MouseEvent(.press, at: Point(x: 45, y: 10))))
        #expect(host.manager.focusedPaneID == 1)
        #expect((host.overlay as? CatalogOverlay)?.selected == 0)
    }
}
