import CanvasCore
import CanvasFiles
import CanvasStyle
import CanvasUI
import CommandSupport
import Foundation
import LayoutStore
@testable import termcanvas
import Testing

/// Start-up: which store, layout and theme the dashboard begins with, and what it tells the user.
@MainActor
@Suite("Composition chooses the starting store, layout and theme")
struct CompositionTests {
    /// A composition whose XDG directories are all under a fresh home.
    func composition(home: TemporaryDirectory) -> Composition {
        Composition(paths: Paths(environment: ["HOME": home.url.path]), logger: Fixed.logger)
    }

    func library(_ store: LayoutStore) -> DashboardLibrary {
        DashboardLibrary(store: store, presets: Repo.presets, adaptTheme: { $0 })
    }

    // MARK: openStore

    @Test func aNewStoreOpensWithoutNotices() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try composition.openStore()
        #expect(composition.notices.isEmpty)
        #expect(store.path == composition.paths.layoutDatabase.path)
        #expect(FileManager.default.fileExists(atPath: composition.paths.layoutDatabase.path))
    }

    @Test func aCorruptFileIsKeptAsideAndANewStoreWorks() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let database = composition.paths.layoutDatabase
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        try garbage.write(to: database)

        let store = try composition.openStore()
        #expect(store.path == database.path)
        try store.save(LayoutData(name: "after", panes: [Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 12, height: 12))]))
        #expect(try store.summaries().map(\.name) == ["after"])

        let notice = try #require(composition.notices.first)
        #expect(composition.notices.count == 1)
        #expect(notice.kind == .error)
        #expect(notice.text.contains("was damaged"))
        let kept = try #require(notice.text.firstMatch(of: /kept as (\S+)/)).output.1
        #expect(kept.hasPrefix(database.path + ".corrupt-"))
        #expect(FileManager.default.contents(atPath: String(kept)) == garbage, "the damaged file is kept as it was")
    }

    @Test func anUnusableDataDirectoryGivesAnInMemoryStoreAndSaysChangesAreNotSaved() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        // The data directory is a regular file: nothing can be created in it.
        let dataDirectory = composition.paths.dataDirectory
        try FileManager.default.createDirectory(at: dataDirectory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a directory".utf8).write(to: dataDirectory)

        let store = try composition.openStore()
        #expect(store.path == nil, "in memory")
        try store.save(LayoutData(name: "scratch", panes: [Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 12, height: 12))]))
        #expect(try store.layout(named: "scratch")?.panes.count == 1)

        let notice = try #require(composition.notices.first)
        #expect(notice.kind == .error)
        #expect(notice.text.hasPrefix("Changes will not be saved: "))
        #expect(notice.text.contains(composition.paths.layoutDatabase.path), "says which file: \(notice.text)")
        #expect(!notice.text.contains("Domain="), "readable: \(notice.text)")
        // The file in the way is left alone.
        #expect(FileManager.default.contents(atPath: dataDirectory.path) == Data("not a directory".utf8))
    }

    @Test func theNoticeOfAStartUpProblemShowsInTheStatusBar() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let dataDirectory = composition.paths.dataDirectory
        try FileManager.default.createDirectory(at: dataDirectory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: dataDirectory)
        let store = try composition.openStore()
        let library = library(store)
        let canvas = try composition.startingCanvas(option: nil, library: library)
        let host = composition.makeHost(canvas: canvas, theme: .dark, today: Fixed.today, size: Fixed.size, library: library)
        host.perform(host.update(.start(HostStart(notice: composition.startingNotice))))
        let statusBar = host.compose().lines.last ?? ""
        #expect(statusBar.contains("Changes will not be saved"), "\(statusBar)")
        #expect(!statusBar.contains("Domain="), "no raw error dump: \(statusBar)")
    }

    // MARK: startingCanvas

    @Test func aLayoutFileGivesThatLayout() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let library = library(try LayoutStore.inMemory())
        let path = Repo.layouts.appendingPathComponent("monitor.yaml").path
        let canvas = try composition.startingCanvas(option: path, library: library)
        #expect(canvas.layout == (try LayoutFile.parse(try Repo.contents("layouts/monitor.yaml"), file: path)))
        #expect(canvas.layout.name == "monitor")
        #expect(canvas.panes.count == 3)
        #expect(composition.notices.isEmpty)
    }

    @Test func aMalformedLayoutFileThrowsAnErrorNamingFileLineAndField() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let library = library(try LayoutStore.inMemory())
        let file = home.url.appendingPathComponent("broken.yaml")
        try Data("name: broken\npanes:\n  - { id: 1, app: calendar, x: 0, y: 0, width: 13, height: 4 }\n".utf8).write(to: file)

        let error = try #require(throws: FileError.self) {
            try composition.startingCanvas(option: file.path, library: library)
        }
        #expect(error.file == file.path)
        #expect(error.line == 3)
        #expect(error.field == "panes[0].width")
        #expect(error.description.contains("broken.yaml:3:"))
        #expect(error.description.contains("panes[0].width: expected a whole number from 1 to 12, got '13'"))
    }

    @Test func aMissingLayoutFileThrows() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let library = library(try LayoutStore.inMemory())
        #expect(throws: (any Error).self) {
            try composition.startingCanvas(option: home.url.appendingPathComponent("nowhere.yaml").path, library: library)
        }
    }

    @Test func aStoredNameGivesTheStoredLayout() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        var work = try #require(try Repo.presets.layout(named: "planner"))
        work.name = "work"
        work.panes.removeLast()
        try store.save(work)
        let canvas = try composition.startingCanvas(option: "work", library: library(store))
        #expect(canvas.layout == work)
    }

    @Test func aStoredLayoutWinsOverThePresetOfTheSameName() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        var mine = try #require(try Repo.presets.layout(named: "planner"))
        mine.name = "monitor"
        try store.save(mine)
        let canvas = try composition.startingCanvas(option: "monitor", library: library(store))
        #expect(canvas.layout == mine)
    }

    @Test(arguments: ["default", "planner", "monitor"])
    func aPresetNameGivesThePreset(_ name: String) throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let canvas = try composition.startingCanvas(option: name, library: library(try LayoutStore.inMemory()))
        #expect(canvas.layout == (try Repo.presets.layout(named: name)))
        #expect(canvas.layout.name == name)
        #expect(composition.notices.isEmpty)
    }

    @Test func anUnknownNameThrows() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let error = try #require(throws: LayoutStoreError.self) {
            try composition.startingCanvas(option: "nonesuch", library: library(try LayoutStore.inMemory()))
        }
        #expect(error == .notFound(name: "nonesuch"))
    }

    @Test func nothingGivesTheRememberedLastLayout() async throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        let library = library(store)
        var work = try #require(try Repo.presets.layout(named: "monitor"))
        work.name = "work"
        try await library.save(work)  // as the dashboard saves on quit
        let canvas = try composition.startingCanvas(option: nil, library: library)
        #expect(canvas.layout == work)
        #expect(composition.notices.isEmpty)
    }

    @Test func nothingAndNothingRememberedGivesTheDefaultPreset() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let canvas = try composition.startingCanvas(option: nil, library: library(try LayoutStore.inMemory()))
        #expect(canvas.layout == (try Repo.presets.layout(named: "default")))
        #expect(composition.notices.isEmpty)
    }

    @Test func aRememberedLayoutThatIsGoneFallsBackToDefaultWithANotice() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        try store.setPreference(DashboardLibrary.layoutPreference, to: "deleted")
        let canvas = try composition.startingCanvas(option: nil, library: library(store))
        #expect(canvas.layout.name == "default")
        #expect(composition.notices.map(\.text) == ["Could not restore layout 'deleted': no layout named 'deleted'"])
    }

    @Test func withoutPresetFilesTheBuiltInDefaultIsUsed() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let empty = PresetFiles(layoutFolders: [home.url], themeFolders: [home.url])
        let library = DashboardLibrary(store: try LayoutStore.inMemory(), presets: empty, adaptTheme: { $0 })
        let canvas = try composition.startingCanvas(option: nil, library: library)
        #expect(canvas.layout == DefaultLayout.make())
        #expect(composition.notices.count == 1)
    }

    // MARK: startingTheme

    @Test func anUnknownThemeThrowsListingTheAvailableOnes() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        let error = try #require(throws: ThemeNotFound.self) {
            try composition.startingTheme(option: "neon", library: library(store))
        }
        #expect(error.description == "no theme named 'neon'; available: dark, high-contrast, light")
        #expect(try store.preference(DashboardLibrary.themePreference) == nil, "nothing remembered")
    }

    @Test func aKnownThemeIsUsedAndRemembered() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        let light = try #require(try Repo.presets.theme(named: "light"))
        #expect(try composition.startingTheme(option: "light", library: library(store)) == light)
        #expect(try store.preference(DashboardLibrary.themePreference) == "light")
        // The next start without --theme uses it.
        #expect(try composition.startingTheme(option: nil, library: library(store)) == light)
        #expect(composition.notices.isEmpty)
    }

    @Test func theThemeIsFittedToTheTerminal() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let library = DashboardLibrary(store: try LayoutStore.inMemory(), presets: Repo.presets,
                                       adaptTheme: Composition.themeAdapter(colors: 8, noColor: true))
        #expect(try composition.startingTheme(option: "dark", library: library) == Theme.dark.monochrome)
    }

    @Test func nothingRememberedGivesDark() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        #expect(try composition.startingTheme(option: nil, library: library(try LayoutStore.inMemory())) == Theme.dark)
    }

    @Test func aRememberedThemeThatIsGoneFallsBackToDarkWithANotice() throws {
        let home = try TemporaryDirectory()
        var composition = composition(home: home)
        let store = try LayoutStore.inMemory()
        try store.setPreference(DashboardLibrary.themePreference, to: "sepia")
        #expect(try composition.startingTheme(option: nil, library: library(store)) == Theme.dark)
        #expect(composition.notices.map(\.text) == ["no theme named 'sepia'; available: dark, high-contrast, light"])
    }
}

/// Issue 55, item 5: the README's first promise, a calendar whose picked day the todo list
/// follows, holds in the planner preset too.
@MainActor
@Suite("The planner preset")
struct PlannerPresetTests {
    @Test("has a todo list, which follows the day its calendar picks")
    func itsTodoListFollowsTheCalendar() throws {
        let rig = try Rig(layout: "planner")
        #expect(rig.host.manager.panes.map(\.app.rawValue).sorted() == ["calendar", "eventlog", "todo"])
        // The calendar has the focus: the next day is picked, and the todo list's title says it.
        rig.press(.right)
        #expect(rig.text.contains("Todo · Mon 23 Nov"), "\(rig.screen.prefix(3))")
    }
}
