import CanvasCore
import CanvasFiles
import CanvasUI
import Foundation
import GRDB
@testable import LayoutStore
import Testing
@testable import termcanvas

/// Quitting saves the layout first; when that fails (here a real SQLite file that may not grow,
/// as on a full disk) the user is told before the terminal closes, chooses, and what was saved
/// before is kept.
@MainActor
@Suite("Saving on quit")
struct QuitSaveTests {
    /// A layout whose saving needs new pages: a pane of an unknown app (kept and saved back
    /// unchanged) with 20 KB of settings, beside the two panes of the tests' `default`.
    static func bigLayoutPresets(in directory: TemporaryDirectory) throws -> PresetFiles {
        let folder = directory.url.appendingPathComponent("layouts", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        name: "big"
        grid: { columns: 12, rows: 12, minWidth: 2, minHeight: 2 }
        focused: 1
        panes:
          - { id: 1, app: calendar, x: 0, y: 0, width: 4, height: 12 }
          - { id: 2, app: eventlog, x: 4, y: 0, width: 4, height: 12 }
          - { id: 3, app: mystery, x: 8, y: 0, width: 4, height: 12, config: { note: "\(String(repeating: "x", count: 20_000))" } }
        """.write(to: folder.appendingPathComponent("big.yaml"), atomically: true, encoding: .utf8)
        return PresetFiles(layoutFolders: [folder, Repo.fixtures, Repo.layouts], themeFolders: [Repo.themes])
    }

    /// A rig on `big`, with an earlier, smaller `big` saved and the file then kept from growing.
    static func fullDiskRig() throws -> (rig: Rig, previous: LayoutData) {
        let directory = try TemporaryDirectory()
        let rig = try Rig(directory: directory, layout: "big", presets: try bigLayoutPresets(in: directory))
        var previous = rig.host.currentLayout()
        previous.panes.removeAll { $0.app == AppKind("mystery") }
        try rig.store.save(previous)
        try rig.store.limitGrowth()
        return (rig, previous)
    }

    @Test func aFailedSaveIsShownBeforeQuittingAndThePreviousLayoutIsKept() async throws {
        let (rig, previous) = try Self.fullDiskRig()

        let messages = try await rig.press(.char("q"), expecting: 1)
        #expect(messages.map(\.kind).first?.hasPrefix("quitSaved: the disk is full") == true, "\(messages.map(\.kind))")
        #expect(!rig.host.shouldQuit, "the dashboard stays until the user has read why")
        let text = rig.text
        #expect(text.contains("Layout not saved"))
        #expect(text.contains("Could not save the layout: the disk is full"))
        #expect(text.contains("q again quits without saving, Esc stays."))
        #expect(rig.statusBar.hasPrefix(" QUIT  q quit without saving Esc stay"))

        // Esc stays: the dashboard as it was, and the next q tries again.
        rig.press(.escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(!rig.host.shouldQuit)
        #expect(!rig.text.contains("Could not save the layout"))
        try await rig.press(.char("q"), expecting: 1)
        #expect(rig.text.contains("Could not save the layout: the disk is full"))

        // q again quits without saving, and nothing is saved after the loop either.
        rig.press(.char("q"))
        #expect(rig.host.shouldQuit)
        #expect(rig.host.quitSave == .declined)
        rig.host.perform(rig.host.update(.shutdown))
        await rig.settle()
        #expect(await Dashboard.saveOnExit(host: rig.host, library: rig.library, logger: Fixed.logger) == nil)

        // What was saved before is whole, on this connection and on a new one.
        #expect(try rig.store.layout(named: "big") == previous)
        let reopened = try LayoutStore.open(at: rig.directory.database).store
        #expect(try reopened.load(named: "big")?.layout == previous)
        #expect(try reopened.history(named: "big").count == 1)
    }

    @Test func aFailedSaveOnTheTooSmallScreenIsShownThere() async throws {
        let (rig, _) = try Self.fullDiskRig()
        rig.host.input(.resize(Size(width: 20, height: 8)))
        #expect(rig.text.contains("Terminal too small"))
        try await rig.press(.char("q"), expecting: 1)
        #expect(!rig.host.shouldQuit)
        #expect(rig.text.replacingOccurrences(of: "\n", with: " ").contains("Could not save the"))
        #expect(!rig.text.contains("Terminal too small"))
        rig.press(.escape)
        #expect(rig.text.contains("Terminal too small"))
        #expect(!rig.host.shouldQuit)
    }

    /// A signal or a closed terminal ends the loop without a quit key: the save after the loop
    /// fails the same way and gives the line printed on standard error once the terminal is restored.
    @Test func aFailedSaveAfterTheLoopGivesAMessageForStandardError() async throws {
        let (rig, previous) = try Self.fullDiskRig()
        rig.host.perform(rig.host.update(.shutdown))
        await rig.settle()
        let message = await Dashboard.saveOnExit(host: rig.host, library: rig.library, logger: Fixed.logger)
        #expect(message?.hasPrefix("termcanvas: could not save the layout: the disk is full") == true, "\(message ?? "nil")")
        #expect(message?.contains(rig.directory.database.path) == true)
        #expect(try rig.store.layout(named: "big") == previous)
    }

    @Test func qSavesThenQuits() async throws {
        let rig = try Rig()
        rig.press(.ctrl("e"), .right, .enter)
        let messages = try await rig.press(.char("q"), expecting: 1)
        #expect(messages.map(\.kind) == ["quitSaved: ok"])
        #expect(rig.host.shouldQuit)
        #expect(rig.host.quitSave == .saved)
        #expect(try rig.store.layout(named: "default") == rig.host.currentLayout())
        #expect(try rig.store.preference(DashboardLibrary.layoutPreference) == "default")
        #expect(await Dashboard.saveOnExit(host: rig.host, library: rig.library, logger: Fixed.logger) == nil)
    }

    @Test func ctrlQDuringTheSaveQuitsAtOnceAndTheLoopsEndSavesAgain() async throws {
        let rig = try Rig()
        rig.press(.ctrl("e"), .right, .enter)
        rig.press(.char("q"), .ctrl("q"))
        #expect(rig.host.shouldQuit)
        #expect(rig.host.quitSave == .saving)
        await rig.settle()
        #expect(await Dashboard.saveOnExit(host: rig.host, library: rig.library, logger: Fixed.logger) == nil)
        #expect(try rig.store.layout(named: "default") != nil)
    }
}

extension LayoutStore {
    /// Lets the file grow by no more than `pages` pages from now on, on this store's connection,
    /// so a write that needs more fails with SQLITE_FULL as on a full disk.
    func limitGrowth(toPages pages: Int = 0) throws {
        try writer.writeWithoutTransaction { db in
            let count = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(count + pages)")
        }
    }
}
