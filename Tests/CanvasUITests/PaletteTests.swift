import CanvasCore
import TestSupport
import CanvasUI
import Testing

@MainActor
@Suite("The command palette")
struct PaletteTests {
    func palette(_ host: CanvasHost) -> PaletteOverlay? { host.overlay as? PaletteOverlay }

    func titles(_ host: CanvasHost) -> [String] {
        let context = host.overlayContext
        return palette(host)?.items(context).map(\.title) ?? []
    }

    @Test func ctrlPOrColonOpensItWithEveryCommandThatAppliesNow() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 60))
        host.press(.ctrl("p"))
        #expect(palette(host) != nil)
        let screen = host.screen
        #expect(screen.contains { $0.contains("┏━ Commands ━") })
        #expect(screen.contains { $0.contains("┃ > ▏") })
        #expect(screen.contains { $0.contains("Save the layout under a name") && $0.contains("Ctrl-S") })
        #expect(host.statusBar.hasPrefix(" COMMAND  type search ↑↓ choose Enter run Esc close "))
        // Normal mode's commands, the canvas's and arrange mode's (issue 40), not the palette itself.
        let listed = titles(host)
        #expect(listed.contains("Arrange panes: move, resize, add, remove"))
        #expect(listed.contains("Undo the last arrangement step"))
        #expect(!listed.contains("Back to normal mode"))
        #expect(!listed.contains { $0.hasPrefix("Command palette") })
        host.press(.escape)
        #expect(host.overlay == nil)
        host.press(.char(":"))
        #expect(palette(host) != nil)
    }

    @Test func colonIsTypedWhenATextFieldHasTheFocus() throws {
        let recorder = Recorder()
        let host = try makeHost([pane(1, .typing, 0, 0, 12, 12)], recorder: recorder)
        host.press(.char(":"))
        #expect(host.overlay == nil)
        #expect(recorder.keys(of: 1) == [.char(":")])
        host.press(.ctrl("p"))
        #expect(palette(host) != nil, "Ctrl-P opens it over the field")
    }

    @Test func typingPartOfATitleFindsItAndEnterRunsIt() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 30))
        host.press(.ctrl("p"))
        for character in "save lay" { host.press(.char(character)) }
        #expect(titles(host).first == "Save the layout under a name")
        host.press(.enter)
        // layout.save ran: without a layout database it says it cannot save (with one, the prompt opens).
        #expect(host.overlay == nil)
        #expect(host.notice == .error("Layouts cannot be saved: no layout database"))
        #expect(host.recentCommands == [.saveLayout])
    }

    @Test func recentCommandsComeFirst() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 30))
        for query in ["theme", "arrange"] {
            host.press(.ctrl("p"))
            for character in query { host.press(.char(character)) }
            host.press(.enter)
            host.press(.escape)
        }
        #expect(host.recentCommands == [.arrange, .pickTheme])
        host.press(.ctrl("p"))
        #expect(Array(titles(host).prefix(2)) == ["Arrange panes: move, resize, add, remove", "Choose a theme (live preview)"])
    }

    @Test func inArrangeModeItOffersArrangeCommands() throws {
        let host = try makeHost(halves, focused: 1, size: Size(width: 100, height: 30))
        host.press(.ctrl("e"), .ctrl("p"))
        for character in "grow right" { host.press(.char(character)) }
        #expect(titles(host).first == "Resize: grow the pane right, wider (shrinks neighbours)")
        host.press(.enter)
        #expect(host.manager.pane(1)?.frame.width == 7)
        #expect(host.mode == .arrange)
    }

    /// Issue 40: arrange actions are found by the words people search with, from normal mode
    /// too; running one enters arrange mode.
    @Test func fromNormalModeItFindsArrangeActionsByTheirWords() throws {
        let host = try makeHost(halves, focused: 1, size: Size(width: 100, height: 30))
        #expect(host.mode == .normal)
        for (query, title) in [("wider", "Resize: grow the pane right, wider (shrinks neighbours)"),
                               ("narrower", "Resize: shrink the pane from the right, narrower"),
                               ("split", "Add a widget from the catalog (in free room, or splitting the focused pane)"),
                               ("add", "Add a widget from the catalog (in free room, or splitting the focused pane)")] {
            host.press(.ctrl("p"))
            for character in query { host.press(.char(character)) }
            #expect(titles(host).first == title, "\(query)")
            host.press(.escape)
        }
        host.press(.ctrl("p"))
        #expect(!titles(host).contains("Back to normal mode"))
        for character in "wider" { host.press(.char(character)) }
        host.press(.enter)
        #expect(host.manager.pane(1)?.frame.width == 7)
        #expect(host.mode == .arrange)
        host.press(.ctrl("p"))
        #expect(!titles(host).contains("Arrange panes: move, resize, add, remove"))
    }

    @Test func layoutsAndThemesAreEntriesToo() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 30))
        host.press(.ctrl("p"))
        host.deliver(.namesListed(layouts: ["planner"], themes: ["dark", "light"]))
        for character in "planner" { host.press(.char(character)) }
        #expect(titles(host).first == "layout: planner")
        for _ in 0..<7 { host.press(Key(.backspace)) }
        for character in "theme: light" { host.press(.char(character)) }
        #expect(titles(host).first == "theme: light")
        // Opened again, it has them at once, before they are listed afresh.
        host.press(.escape, .ctrl("p"))
        #expect(titles(host).suffix(3) == ["layout: planner", "theme: dark", "theme: light"])
    }

    @Test func commandsThatWouldDoNothingAreNotOffered() throws {
        let recorder = Recorder()
        let host = try makeHost([pane(1, .typing, 0, 0, 6, 12), pane(2, .probe, 6, 0, 6, 12)], focused: 1, recorder: recorder)
        host.press(.ctrl("p"))
        let listed = titles(host)
        #expect(listed.contains("Focus pane 2 (its number is in its title)"))
        #expect(!listed.contains("Focus pane 3 (its number is in its title)"), "two panes")
    }

    @Test func nothingMatchingSaysSo() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 30))
        host.press(.ctrl("p"))
        for character in "zzzqqq" { host.press(.char(character)) }
        #expect(host.screen.contains { $0.contains("┃ Nothing matches. ") })
        host.press(.enter)
        #expect(palette(host) != nil, "Enter with nothing highlighted does nothing")
    }

    @Test func fuzzyScoresPreferWordStartsAndRuns() {
        #expect(FuzzyMatch.score("sl", in: "Save the layout") != nil)
        #expect(FuzzyMatch.score("xyz", in: "Save the layout") == nil)
        #expect(FuzzyMatch.score("lay", in: "layout: planner")! > FuzzyMatch.score("lay", in: "Help: every command and its keys, play") ?? 0)
        #expect(FuzzyMatch.score("", in: "anything") == 0)
    }
}

/// Random keys into the palette and the help, with text whose scalars join: nothing traps, the
/// overlay stays drawable, and every Enter runs at most one command.
@MainActor
@Suite("The palette and help under random keys")
struct OverlayRandomKeyTests {
    static let keys: [Key] = ["a", "s", "v", "l", "y", "e\u{301}", "\u{1F468}\u{200D}\u{1F469}", "\u{301}", "\u{200D}", " ", ":", "?"]
        .map { Key(.char(Character($0))) }
        + [.up, .down, .left, .right, .enter, .escape, Key(.backspace), Key(.pageUp), Key(.pageDown), Key(.home), Key(.end), .ctrl("u"),
           .ctrl("w"), .ctrl("p"), Key(.function(1))]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomKeys(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let host = try makeHost(halves, size: Size(width: 70, height: 22))
        for step in 0..<3000 {
            if host.overlay == nil { host.press(step % 2 == 0 ? .ctrl("p") : Key(.function(1))) }
            if host.shouldQuit { return }  // the palette may well have run Quit
            host.press(Self.keys.randomElement(using: &generator)!)
            if step % 500 == 0 { host.input(.resize(Size(width: Int.random(in: 20...120, using: &generator), height: 22))) }
            _ = host.compose()
        }
    }
}
