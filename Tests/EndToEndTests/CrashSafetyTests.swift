import CanvasCore
import CanvasFiles
import TestSupport
import Foundation
import LayoutStore
import Testing

/// A save killed at any moment (`kill -9`) leaves the database intact, holding the old or the
/// new layout, never a mix.
struct CrashSafetyTests {
    /// A layout of `columns × rows` panes with some widget state, distinguishable by `tag`.
    static func layout(columns: Int, rows: Int, tag: String) -> LayoutData {
        var panes: [Pane] = []
        for index in 0..<(columns * rows) {
            let frame = Rect(x: (index % columns) * (12 / columns), y: (index / columns) * (12 / rows),
                             width: 12 / columns, height: 12 / rows)
            panes.append(Pane(id: PaneID(index + 1), app: index.isMultiple(of: 2) ? .calendar : .eventLog, frame: frame,
                              config: ["tag": tag], state: ["selected": "2026-11-\(10 + index % 18)", "note": tag]))
        }
        return LayoutData(name: "crash", grid: GridSpec(columns: 12, rows: 12, minimumPaneSize: Size(width: 1, height: 1)),
                          panes: panes, focused: 1)
    }

    @Test func killingSavesMidWayNeverMixesLayouts() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tc-crash-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
                           "XDG_CONFIG_HOME": home.path + "/config"]
        let old = Self.layout(columns: 6, rows: 6, tag: "old")   // 36 panes
        let new = Self.layout(columns: 12, rows: 4, tag: "new")  // 48 panes
        let files = [old, new].map { layout in home.appendingPathComponent("\(layout.panes.count).yaml") }
        for (layout, file) in zip([old, new], files) { try Data(try LayoutFile.export(layout).utf8).write(to: file) }
        let binary = Products.termcanvas.path
        #expect(try await Command.run([binary, "layout", "import", files[0].path], environment: environment).status == 0)

        var generator = SplitMix64(seed: 9)
        var killedMidWay = 0
        for round in 0..<60 {
            let (file, written) = (files[round % 2], [old, new][round % 2])
            let pid = try Command.start([binary, "layout", "import", file.path, "--replace"], environment: environment)
            // Process start-up takes ~15 ms; the write itself is a few ms somewhere after it.
            try await Task.sleep(for: .microseconds(Int.random(in: 5_000...40_000, using: &generator)))
            kill(pid, SIGKILL)
            let killed = await Command.waitForExit(pid) == 128 + SIGKILL
            if killed { killedMidWay += 1 }

            // The database opens without recovery and holds exactly one of the two layouts.
            let opened = try LayoutStore.open(at: home.appendingPathComponent("data/termcanvas/layouts.sqlite"))
            #expect(opened.recovered == nil)
            let stored = try #require(try opened.store.load(named: "crash")).layout
            #expect(stored == old || stored == new, "round \(round): a mix of two layouts")
            if !killed { #expect(stored == written, "round \(round): a finished import was not stored") }
        }
        // The test only means something if many saves were really interrupted.
        #expect(killedMidWay >= 10, "only \(killedMidWay) of 60 imports were killed before they finished")
    }
}
