import CanvasCore
import CanvasStyle
import CanvasUI
@testable import CanvasFiles
import Foundation
import Testing
import Widgets

@Suite("The layout and theme files shipped in the repository")
struct ShippedFilesTests {
    /// The repository root: this file is `Tests/CanvasFilesTests/ShippedFilesTests.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func folderExists(_ folder: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Paths like `layouts/planner.yaml` of every YAML file in a folder, sorted; none when it is missing.
    static func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { "\(folder)/\($0)" }
    }

    static func contents(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: ["layouts", "themes"])
    func aShippedFolderHoldsFiles(_ folder: String) {
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Package.swift").path), "root is \(Self.root.path)")
        if Self.folderExists(folder) {
            #expect(!Self.files(in: folder).isEmpty, "\(folder)/ has no .yaml files")
        }
    }

    @Test(arguments: files(in: "layouts"))
    func everyShippedLayoutParses(_ path: String) throws {
        let layout = try LayoutFile.parse(try Self.contents(path), file: path)
        #expect(!layout.panes.isEmpty)
        // Shipped layouts use only widgets and micro-apps TermCanvas ships, and are named after their file.
        let shippedApps = AppFolders(user: Self.root.appendingPathComponent("no-user-apps"), shipped: [Self.root.appendingPathComponent("apps")])
            .scan().apps.map(\.id)
        for pane in layout.panes {
            #expect(WidgetCatalog.builtIn.descriptor(for: pane.app) != nil || shippedApps.contains(pane.app.rawValue),
                    "\(path): pane \(pane.id) has unknown app \(pane.app)")
        }
        #expect(layout.name == URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        // And they survive being written back.
        #expect(try LayoutFile.parse(try LayoutFile.export(layout), file: path) == layout)
    }

    @Test(arguments: files(in: "themes"))
    func everyShippedThemeParses(_ path: String) throws {
        let theme = try ThemeFile.parse(try Self.contents(path), file: path)
        #expect(theme.name == URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        // A shipped theme styles the text at least; the rest falls back to plain.
        #expect(theme[.text] != .plain)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: root.appendingPathComponent("themes/dark.yaml").path)))
    func theShippedDarkThemeIsTheBuiltInOne() throws {
        let theme = try ThemeFile.parse(try Self.contents("themes/dark.yaml"), file: "themes/dark.yaml")
        for role in ThemeRole.allCases {
            #expect(theme[role] == Theme.dark[role], "\(role)")
        }
    }

    @Test func everyShippedAppParsesAndItsProgramIsThere() throws {
        let found = AppFolders(user: Self.root.appendingPathComponent("no-user-apps"), shipped: [Self.root.appendingPathComponent("apps")]).scan()
        #expect(found.problems == [])
        #expect(found.apps.map(\.id) == ["homedisk", "pomodoro", "sysmon"])
        for app in found.apps where app.manifest.sample == nil {
            let script = try #require(app.manifest.exec.last)
            #expect(FileManager.default.fileExists(atPath: app.folder.appendingPathComponent(script).path), "\(app.id): \(script)")
        }
    }
}
