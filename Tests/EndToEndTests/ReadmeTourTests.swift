import CanvasCore
import Foundation
import TestSupport
import Testing

/// Issue 40: the README's five-minute tour, walked as a newcomer would, with the keys and
/// commands it gives. Each step first checks the README still says what the step types, so the
/// tour and this test cannot drift apart.
@Suite(.serialized)
struct ReadmeTourTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func readme() throws -> String {
        try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// Expects the README to say `phrase`, as the tour gives it.
    static func says(_ readme: String, _ phrase: String) {
        #expect(readme.contains(phrase), "the README no longer says: \(phrase)")
    }

    @Test func theTourDoesWhatItSays() async throws {
        let readme = try Self.readme()
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        defer { home.remove() }
        let environment = home.environment
        let termcanvas = { (arguments: [String]) in
            try await Command.run([Products.termcanvas.path] + arguments, environment: environment)
        }
        Self.says(readme, "termcanvas                       # the dashboard; q quits (Ctrl-Q in chat, whose line takes the q), saving the arrangement")
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 120, height: 36),
                                            environment: environment)
        try await session.waitFor("November 2026")
        try await session.waitForScreen("the first frame") { $0.last?.contains("NORMAL") == true }

        // 1. Arrange by keyboard.
        Self.says(readme, "Tab and Shift-Tab move the focus between panes")
        try await session.send("Tab")
        try await session.waitFor("┏━ 2 Calendar")
        Self.says(readme, "Ctrl-E enters arrange mode")
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        Self.says(readme, "Shift+arrows grow and shrink it")
        try await session.send("S-Down")
        try await session.waitFor(" 0,0 5×8 ")
        Self.says(readme, "your first change to\n`default` is kept as `default (changed)`")
        try await session.waitForScreen("the changes kept apart") { $0.last?.contains("default (changed)") == true }
        Self.says(readme, "`u` and Ctrl-R undo and redo")
        try await session.send("u")
        try await session.waitFor(" 0,0 5×7 ")
        try await session.send("C-r")
        try await session.waitFor(" 0,0 5×8 ")
        Self.says(readme, "`a` adds\na widget from the catalog")
        try await session.send("a")
        try await session.waitFor("Event Log")
        try await session.pressEscape(times: 1)
        try await session.waitForScreen("the catalog closed") { screen in
            screen.last?.contains("ARRANGE") == true && !screen.contains { $0.contains("Add a widget") }
        }
        Self.says(readme, "`x` removes the pane (its neighbours take its room, as in tmux)")
        try await session.send("x")
        try await session.waitFor("Remove")
        try await session.send("y")
        // The calendar goes; the todo list below it grows over its room, up to the top.
        try await session.waitForScreen("the todo list in the calendar's room") { $0.first?.contains("1 Todo") == true }
        try await session.send("u")
        try await session.waitFor(" 0,0 5×8 ")
        Self.says(readme, "Enter or Esc goes back")
        try await session.pressEscape(times: 1)
        try await session.waitFor("NORMAL")
        Self.says(readme, "Alt+z zooms the focused pane to\nthe whole canvas and back")
        try await session.send("M-z")
        try await session.waitForScreen("the calendar zoomed") { screen in
            screen.contains { $0.contains("2 Calendar") && $0.contains("zoomed") } && !screen.contains { $0.contains("Chat") }
        }
        try await session.send("M-z")
        try await session.waitFor("Chat #general")
        Self.says(readme, "Ctrl-P finds any command by name")
        try await session.send("C-p")
        try await session.sendLiteral("wider")
        try await session.waitFor("grow the pane right, wider")
        try await session.pressEscape(times: 1)
        try await session.waitForScreen("the palette closed") { $0.last?.contains("NORMAL") == true }
        Self.says(readme, "Ctrl-G shows every message the status bar\nshowed")

        // 2. Save a layout: the offered name is selected, and typing replaces it.
        Self.says(readme, "Ctrl-S asks for a name, offering the current one selected: type `mine`\n(it replaces the offer")
        try await session.send("C-s")
        try await session.waitFor("Save layout")
        try await session.sendLiteral("mine")
        try await session.send("Enter")
        try await session.waitFor("Saved as mine")
        try await session.send("C-g")
        try await session.waitFor("Messages")
        try await session.pressEscape(times: 1)
        try await session.waitForScreen("the messages closed") { $0.last?.contains("NORMAL") == true }

        // 3. Load it: typing filters, one Enter opens.
        Self.says(readme, "Ctrl-O lists your layouts and the presets (`default`, `planner`, `monitor`,\n`workbench`): type to filter, Enter loads the highlighted one")
        try await session.send("C-o")
        try await session.waitFor("mine")
        try await session.sendLiteral("plan")
        try await session.send("Enter")
        try await session.waitForScreen("the planner") { $0.last?.contains("planner") == true }
        Self.says(readme, "`p` in arrange mode\n(\"Restore the preset\", or Ctrl-P in Ctrl-O) opens the preset again")
        try await session.send("C-o")
        try await session.sendLiteral("changed")
        try await session.waitFor("default (changed) — 3 panes, changed from preset default")
        try await session.send("C-p")
        try await session.waitForScreen("the preset as its file has it") { $0.last?.contains("Loaded default, a preset") == true }
        try await session.waitFor(" 2 Calendar ")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)

        Self.says(readme, "termcanvas layout list           # saved layouts and presets")
        let listed = try await termcanvas(["layout", "list"])
        #expect(listed.status == 0 && listed.output.contains("mine\t3 panes\t"), "\(listed.output)")
        // Loading and arranging presets stored none of them under its own name.
        #expect(listed.output.contains("default\t3 panes\tpreset") && listed.output.contains("planner\t3 panes\tpreset"), "\(listed.output)")
        #expect(listed.output.contains("default (changed)\t3 panes\t"), "\(listed.output)")
        Self.says(readme, "termcanvas layout export mine mine.yaml   # a YAML file to edit or share (what you typed stays out), then: termcanvas layout import mine.yaml --replace")
        let file = home.url.appendingPathComponent("mine.yaml").path
        #expect(try await termcanvas(["layout", "export", "mine", file]).status == 0)
        let imported = try await termcanvas(["layout", "import", file, "--replace"])
        #expect(imported.status == 0, "\(imported.output)")

        // 4. A micro-app: a copy of the pomodoro, tried headless as the README says.
        Self.says(readme, "termcanvas apps try ~/pomodoro --key space")
        let copy = home.url.appendingPathComponent("pomodoro")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("apps/pomodoro"), to: copy)
        let tried = try await termcanvas(["apps", "try", copy.path, "--key", "space"])
        #expect(tried.status == 0 && tried.output.contains("running"), "\(tried.output)")
        Self.says(readme, "termcanvas apps add ~/pomodoro   # installs your copy")
        let added = try await termcanvas(["apps", "add", copy.path])
        #expect(added.status == 0 && added.output.contains("takes the place of the shipped pomodoro"), "\(added.output)")
    }
}
