import CanvasCore
import CanvasFiles
import Foundation
import TestSupport
import Testing

/// Issue 40: `layout export` writes a file people share; a pane's state (the chat line's input
/// history, the selected day) is the user's own and stays out unless `--with-state` asks for it.
struct LayoutExportTests {
    @Test func aPanesStateStaysOutOfAnExportUnlessAskedFor() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let layout = LayoutData(name: "mine", panes: [
            Pane(id: 1, app: .chat, frame: Rect(x: 0, y: 0, width: 6, height: 12), config: ["channel": "ops"],
                 state: ["history": "hello world\n/join ops"]),
            Pane(id: 2, app: .calendar, frame: Rect(x: 6, y: 0, width: 6, height: 12), state: ["selected": "2026-11-26"]),
        ], focused: 1)
        let file = home.url.appendingPathComponent("mine.yaml")
        try Data(try LayoutFile.export(layout).utf8).write(to: file)
        let binary = Products.termcanvas.path
        #expect(try await Command.run([binary, "layout", "import", file.path], environment: environment).status == 0)

        let shared = try await Command.run([binary, "layout", "export", "mine"], environment: environment)
        #expect(shared.status == 0)
        #expect(!shared.output.contains("hello world") && !shared.output.contains("state:") && !shared.output.contains("2026-11-26"))
        #expect(shared.output.contains("channel: \"ops\""), "settings are part of a layout")
        let parsed = try LayoutFile.parse(shared.output, file: "shared.yaml")
        #expect(parsed.panes.map(\.frame) == layout.panes.map(\.frame) && parsed.panes.allSatisfy { $0.state.isEmpty })

        let own = try await Command.run([binary, "layout", "export", "mine", "--with-state"], environment: environment)
        #expect(try LayoutFile.parse(own.output, file: "own.yaml").panes.map(\.state) == layout.panes.map(\.state))
    }

    /// Issue 40: a layout naming an app not installed here imports (it may be for another
    /// machine), but says so at once, and how to install it.
    @Test func anUnknownAppIsNamedAtImport() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let layout = LayoutData(name: "weather", panes: [
            Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 6, height: 12)),
            Pane(id: 2, app: "weather", frame: Rect(x: 6, y: 0, width: 6, height: 12)),
        ], focused: 1)
        let file = home.environment["HOME"]! + "/weather.yaml"
        try Data(try LayoutFile.export(layout).utf8).write(to: URL(fileURLWithPath: file))
        let imported = try await Command.run([Products.termcanvas.path, "layout", "import", file], environment: home.environment)
        #expect(imported.status == 0)
        #expect(imported.output.contains("note: pane 2 is app 'weather', which is not installed here"), "\(imported.output)")
        #expect(imported.output.contains("termcanvas apps add FOLDER"))
        #expect(!imported.output.contains("pane 1"), "a built-in app is installed")
    }
}
