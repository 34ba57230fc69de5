import CanvasCore
import TestSupport
import Foundation
import Testing

/// Layouts survive the dashboard: save under a name, quit, start again and see the same screen.
@Suite(.serialized)
struct LayoutPersistenceTests {
    @Test func savedLayoutComesBackExactlyAfterARestart() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let start = { (arguments: [String]) in
            try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"] + arguments, size: Size(width: 100, height: 30),
                                  environment: environment)
        }
        // Each run in a function of its own: a session, once released, stops the local server
        // its dashboard used, which must not happen under the next run's feet.
        let saved = try await Self.arrangeAndSave(try await start([]))
        try await Self.restoreAndUndo(try await start(["--layout", "work"]), saved: saved)
        try await Self.lastUsedComesBack(try await start([]))
    }

    /// The calendar's title says so while its server connects: compare settled screens. Only a
    /// title counts (`· connecting ─`): the Event Log may keep a focus event from that time.
    static func settled(_ screen: [String]) -> Bool {
        !screen.contains { row in
            ["· connecting", "· offline"].contains { row.contains("\($0) ─") || row.contains("\($0) ━") }
        }
    }

    /// Moves the event log left (swap), grows it, picks a day; saves as "work" and quits.
    static func arrangeAndSave(_ session: TmuxSession) async throws -> [String] {
        try await session.waitFor("November 2026")
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        try await session.send("Tab")
        try await session.send("Left")
        try await session.waitFor(" 0,0 7×12 ")  // swapped with the calendar, each keeping its size
        try await session.send("S-Right")
        try await session.waitFor(" 0,0 8×12 ")
        try await session.send("Enter", "Tab", "Right", "Right")
        try await session.waitFor("Tuesday, 24 November 2026")
        try await session.send("C-s")
        try await session.waitFor("Save layout")
        try await session.send("C-u")
        try await session.sendLiteral("work")
        try await session.send("Enter")
        try await session.waitFor("Saved as work")
        let saved = try await session.waitForScreen("the status bar settled") { $0.last?.contains("work") == true && settled($0) }
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        return saved
    }

    /// Started with that layout: the same panes, places and selected day; undo reaches back
    /// across the restart.
    static func restoreAndUndo(_ session: TmuxSession, saved: [String]) async throws {
        // Waits for the whole first frame (its status bar), not just its first rows.
        let restored = try await session.waitForScreen("the restored frame") { screen in
            screen.contains { $0.contains("Tuesday, 24 November 2026") } && screen.last?.contains("work") == true && settled(screen)
        }
        // Everything but the Event Log's lines (the bus traffic of a session is not kept).
        #expect(restored[0] == saved[0])
        #expect(restored.dropLast().map { $0.dropFirst(66) } == saved.dropLast().map { $0.dropFirst(66) })
        #expect(restored.last?.contains("work") == true)

        // The grow step is undone.
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        try await session.send("Tab", "u")
        try await session.waitFor(" 0,0 7×12 ")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// Without --layout the last used layout comes back, as it was left.
    static func lastUsedComesBack(_ session: TmuxSession) async throws {
        try await session.waitForScreen("the work layout, undone once") { rows in
            // The calendar's border starts at 7/12 of 100 columns again.
            rows.last?.contains("work") == true && rows[0].contains("2 Event Log")
                && Array(rows[0])[58...].starts(with: "┌─ 1 Calendar")
        }
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func aMalformedLayoutFileIsRefusedBeforeTheScreenChanges() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let file = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("broken.yaml")
        try Data("name: broken\npanes:\n  - { id: 1, app: calendar, x: 0, y: 0, width: 13, height: 4 }\n".utf8).write(to: file)
        let result = try await Command.run([Products.termcanvas.path, "--layout", file.path], environment: environment)
        #expect(result.status != 0)
        #expect(result.output.contains("broken.yaml:3:"))
        #expect(result.output.contains("panes[0].width: expected a whole number from 1 to 12, got '13'"))
    }
}
