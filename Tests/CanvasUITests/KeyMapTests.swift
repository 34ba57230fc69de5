import CanvasCore
import CanvasUI
import Testing

/// A user's key map over the defaults, as values, and in a host.
@MainActor
@Suite("Key maps: binding, unbinding and their mistakes")
struct KeyMapTests {
    static let defaults = CommandTable(CanvasCommands.all)

    static func bind(_ name: String, _ command: CommandID, line: Int = 2) -> KeyMapEdits.Bind {
        KeyMapEdits.Bind(key: Key(name: name)!, command: command, line: line)
    }

    @Test func aBoundKeyComesFirstAndTheDefaultStays() throws {
        let table = try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("ctrl+j", .focusNext)]))
        #expect(table.keys(for: .focusNext) == [.ctrl("j"), .tab])
        #expect(table.command(for: .ctrl("j"), in: [.normal, .canvas])?.id == .focusNext)
        #expect(table.command(for: .tab, in: [.normal, .canvas])?.id == .focusNext)
        #expect(table.hints(in: [.canvas]).first == KeyHint(keys: "^J", action: "focus"))
        #expect(table.conflicts.isEmpty)
    }

    @Test func unbindingAKeyOrACommand() throws {
        var table = try Self.defaults.applying(KeyMapEdits(unbinds: [.init(.key(.tab), line: 3)]))
        #expect(table.keys(for: .focusNext) == [])
        #expect(table.command(for: .tab, in: [.normal, .canvas]) == nil)
        table = try Self.defaults.applying(KeyMapEdits(unbinds: [.init(.command(.quit), line: 3)]))
        #expect(table.command(for: .char("q"), in: [.canvas]) == nil)
        #expect(table.command(for: .ctrl("q"), in: [.canvas]) == nil)
        // Freed, a key can be given to another command.
        table = try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("tab", .help)], unbinds: [.init(.key(.tab), line: 3)]))
        #expect(table.command(for: .tab, in: [.normal, .canvas])?.id == .help)
    }

    @Test func aKeyAnotherCommandHoldsIsRefusedWithItsLine() {
        #expect(throws: KeyMapProblem(line: 4, field: "bind.tab", message: "tab already runs canvas.focus.next; add it to unbind first")) {
            try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("tab", .help, line: 4)]))
        }
        // Arrange mode's u and a text-free canvas key overlap: refused too.
        #expect(throws: KeyMapProblem.self) {
            try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("u", .help)]))
        }
    }

    @Test func theSameKeyMayMeanDifferentThingsInModesThatNeverMeet() throws {
        // Arrows move panes in arrange mode; in normal mode they are free for a command.
        let table = try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("enter", .arrange)]))
        #expect(table.command(for: .enter, in: [.normal, .canvas])?.id == .arrange)
        #expect(table.command(for: .enter, in: [.arrange, .canvas])?.id == .arrangeDone)
    }

    @Test func anUnknownCommandSuggestsTheNearestName() {
        #expect(throws: KeyMapProblem(line: 2, field: "bind.ctrl+j",
                                      message: "no command named canvas.focsu.next; did you mean canvas.focus.next? (termcanvas keys lists them all)")) {
            try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("ctrl+j", "canvas.focsu.next")]))
        }
        #expect(throws: KeyMapProblem.self) {
            try Self.defaults.applying(KeyMapEdits(unbinds: [.init(.command("layout.nope"), line: 5)]))
        }
        #expect(throws: KeyMapProblem(line: 6, field: "unbind", message: "ctrl+y is not bound to anything")) {
            try Self.defaults.applying(KeyMapEdits(unbinds: [.init(.key(.ctrl("y")), line: 6)]))
        }
    }

    @Test func aKeyWrittenTwiceIsBoundOnce() throws {
        let table = try Self.defaults.applying(KeyMapEdits(binds: [Self.bind("ctrl+s", .saveLayout), Self.bind("CTRL+S", .saveLayout, line: 3),
                                                                   Self.bind("esc", .help, line: 4), Self.bind("escape", .help, line: 5)],
                                                           unbinds: [.init(.key(.escape), line: 1)]))
        #expect(table.keys(for: .saveLayout) == [.ctrl("s")])
        #expect(table.keys(for: .help) == [.escape, .char("?"), Key(.function(1))])
    }

    @Test func shiftTabIsBackTabHoweverItIsWritten() throws {
        #expect(Key(name: "shift+tab") == .backTab)
        let table = try Self.defaults.applying(KeyMapEdits(unbinds: [.init(.key(Key(name: "shift+tab")!), line: 1)]))
        #expect(table.command(for: .backTab, in: [.canvas]) == nil)
        #expect(Self.defaults.command(for: Key(.tab, .shift), in: [.canvas])?.id == .focusPrevious)
    }

    @Test func aHostWithTheUsersKeysDispatchesAndDescribesThem() throws {
        let table = try CommandTable.standard(for: .probes(Recorder())).applying(
            KeyMapEdits(binds: [Self.bind("ctrl+j", .focusNext)], unbinds: [.init(.key(.tab), line: 1)]))
        let host = try makeHost(halves, focused: 1, size: Size(width: 100, height: 40), commands: table)
        #expect(host.statusBar.hasPrefix(" NORMAL  ^E arrange ^J focus ^P commands "))
        host.press(.tab)
        #expect(host.manager.focusedPaneID == 1, "tab is unbound")
        host.press(.ctrl("j"))
        #expect(host.manager.focusedPaneID == 2)
        host.press(.char("?"))
        #expect(host.screen.contains { $0.contains("   Ctrl-J               Focus the next pane ") })
    }
}
