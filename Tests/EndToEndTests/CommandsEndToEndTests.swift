import CanvasCore
import TestSupport
import Foundation
import Testing

/// The command table as a user meets it: the palette, a key map of their own, help that scrolls,
/// hints that fit, and arranging with the mouse.
@Suite(.serialized)
struct CommandsEndToEndTests {
    static func start(size: Size, keys: String? = nil) async throws -> TmuxSession {
        let home = try DashboardSessionTests.isolatedHome()
        let environment = home.environment
        if let keys {
            try keys.write(toFile: environment["XDG_CONFIG_HOME"]! + "/termcanvas/keys.yaml", atomically: true, encoding: .utf8)
        }
        return try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: size, environment: environment)
    }

    @Test func thePaletteFindsAndRunsSaveLayout() async throws {
        let session = try await Self.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        try await session.send("C-p")
        try await session.waitFor("┏━ Commands ━")
        try await session.sendLiteral("save lay")
        try await session.waitForScreen("save highlighted first") { screen in
            screen.firstIndex { $0.contains("> save lay") }.map { screen[$0 + 1].contains("Save the layout under a name") } ?? false
        }
        try await session.send("Enter")
        try await session.waitForCursor(after: "Name: default")
        try await session.send("C-u")
        try await session.sendLiteral("mine")
        try await session.send("Enter")
        try await session.waitFor("Saved as mine")
        // Recent commands come first the next time.
        try await session.send("C-p")
        try await session.waitForScreen("recent first") { screen in
            screen.firstIndex { $0.contains("┃ > ") }.map { $0 + 1 < screen.count && screen[$0 + 1].contains("Save the layout under a name") } ?? false
        }
        try await session.waitForCursor(after: "┃ > ")
        try await session.send("Escape")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func aUserKeyMapRebindsFocusNextInDispatchHelpAndHints() async throws {
        let session = try await Self.start(size: Size(width: 100, height: 30), keys: """
            # Focus moves with Ctrl-J only.
            bind:
              "ctrl+j": canvas.focus.next
            unbind: [tab]
            """)
        try await session.waitFor("November 2026")
        #expect(try await session.screen().last?.hasPrefix(" NORMAL  ^E arrange ^J focus ^P commands ? help q quit ") == true)
        try await session.send("Tab")
        try await session.send("C-j")
        try await session.waitFor("┏━ 2 Event Log")
        try await session.send("Tab")  // unbound: nothing moves
        try await session.send("F1")
        try await session.waitFor("Ctrl-J               Focus the next pane")
        try await session.send("Escape")
        try await session.waitForScreen("help closed") { !$0.joined().contains("Help") }
        #expect(try await session.screen()[0].contains("┏━ 2 Event Log"), "Tab moved nothing")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func aMistakeInTheKeyMapIsShownAndTheDefaultsWork() async throws {
        let session = try await Self.start(size: Size(width: 160, height: 30), keys: "bind:\n  \"ctrl+j\": canvas.focus.nxt\n")
        try await session.waitFor("Default keys in use: ")
        #expect(try await session.screen().last?.contains("keys.yaml:2: bind.ctrl+j: no command named canvas.focus.nxt") == true)
        try await session.send("Tab")
        try await session.waitFor("┏━ 2 Event Log")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func helpScrollsToItsLastLineOn80x24() async throws {
        let session = try await Self.start(size: Size(width: 80, height: 24))
        try await session.waitFor("November 2026")
        try await session.sendLiteral("?")
        try await session.waitFor("┏━ Help ━")
        #expect(try await !session.screen().contains { $0.contains("drag a corner") })
        try await session.send("End")
        // The last line is on screen, wrapped inside the box, and the position line says so.
        let screen = try await session.waitForScreen("the last line") { screen in
            screen.contains { $0.contains("drag a corner        Resize the pane from its bottom-right corner (arrange ┃") }
                && screen.contains { $0.contains("                        mode)  ") }
        }
        let position = try #require(screen.first { $0.contains("┃ Lines ") })
        let numbers = position.split { !$0.isNumber }.compactMap { Int($0) }
        #expect(numbers.count == 3 && numbers[1] == numbers[2], "\(position)")
        #expect(screen.allSatisfy { $0.count <= 80 })
        try await session.send("Escape")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func hintsOnA60ColumnTerminalEndOnAWholeWord() async throws {
        let session = try await Self.start(size: Size(width: 60, height: 20))
        try await session.waitFor("November 2026")
        let bar = try #require(try await session.screen().last)
        let hints = " NORMAL  ^E arrange Tab focus ^P commands ? help"
        // capture-pane drops the row's trailing blank.
        #expect(bar == hints + String(repeating: " ", count: 60 - 9 - hints.count) + " default")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func aMouseDragMovesAndResizesAPaneAndUUndoesEach() async throws {
        // 80×24: the canvas is 80×23 cells; grid column c starts at cell c × 80 / 12, so the
        // calendar (columns 0–4) covers cells 0–32 and column 9 starts at cell 60.
        let session = try await Self.start(size: Size(width: 80, height: 24))
        try await session.waitFor("November 2026")
        try await session.send("C-e")
        try await session.waitFor(" 0,0 5×12 ")
        // Its title, dragged right: one grid unit on, it swaps places with the event log, each
        // keeping its size, and the right edge stops it there.
        try await session.mouse(.press, x: 10, y: 0)
        try await session.mouse(.drag, x: 40, y: 0)
        try await session.mouse(.drag, x: 70, y: 0)
        try await session.mouse(.release, x: 70, y: 0)
        try await session.waitFor(" 7,0 5×12 ")
        // Its bottom-right corner, dragged left into grid column 10: 4 columns wide.
        try await session.mouse(.press, x: 79, y: 22)
        try await session.mouse(.drag, x: 68, y: 22)
        try await session.mouse(.release, x: 68, y: 22)
        try await session.waitFor(" 7,0 4×12 ")
        try await session.sendLiteral("u")
        try await session.waitFor(" 7,0 5×12 ")
        try await session.sendLiteral("u")
        try await session.waitFor(" 0,0 5×12 ")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }
}
