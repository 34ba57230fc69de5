import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

// Shared helpers for the LayoutStore tests: a fresh temporary directory per test, sample
// layouts, and a second, independent GRDB connection for looking at the raw tables.

/// A new empty directory under the system temporary directory, removed when released.
final class Scratch: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tc-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The database file used by a test (not created until the store opens it).
    var database: URL { directory.appendingPathComponent("layouts.sqlite") }

    /// Names of the files in the directory, sorted.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
}

func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Rect {
    Rect(x: x, y: y, width: width, height: height)
}

/// Opens the store at `url`, requiring that nothing had to be recovered.
func openStore(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> LayoutStore {
    let opened = try LayoutStore.open(at: url)
    #expect(opened.recovered == nil, sourceLocation: sourceLocation)
    return opened.store
}

/// A read-write GRDB connection of its own on the same file, for checking raw rows.
func rawQueue(_ url: URL) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    return try DatabaseQueue(path: url.path, configuration: configuration)
}

func count(_ sql: String, _ arguments: StatementArguments = [], in url: URL) throws -> Int {
    try rawQueue(url).read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? -1 }
}

enum Sample {
    /// A 16×10 grid with a 3×2 minimum: pane 1 fills the left half, panes 2 and 3 the right.
    static let grid = GridSpec(columns: 16, rows: 10, minimumPaneSize: Size(width: 3, height: 2))

    static let name = "Planner – 日本 📅"

    /// Three panes with settings and state (one of an app kind no widget knows), pane 2 focused.
    static var planner: LayoutData {
        LayoutData(
            name: name, grid: grid,
            panes: [
                Pane(id: 1, app: .calendar, frame: rect(0, 0, 8, 10),
                     config: ["weekStart": "monday", "title": "Ünïcode ✓ 日本語 👩‍👩‍👧"],
                     state: ["selected": "2025-03-14", "month": "2025-03"]),
                Pane(id: 2, app: .eventLog, frame: rect(8, 0, 8, 5),
                     config: ["filter": "level: \"error\" # not a comment", "empty": ""],
                     state: ["scroll": "42"]),
                Pane(id: 7, app: "weather", frame: rect(8, 5, 8, 5)),
            ],
            focused: 2
        )
    }

    /// `planner` with one arrangement change: panes 2 and 3 swap places.
    static var swapped: LayoutData {
        var layout = planner
        layout.panes[1].frame = rect(8, 5, 8, 5)
        layout.panes[2].frame = rect(8, 0, 8, 5)
        return layout
    }

    /// `planner` with pane 1 narrowed and pane 2 widened into the gap.
    static var narrowed: LayoutData {
        var layout = planner
        layout.panes[0].frame = rect(0, 0, 5, 10)
        layout.panes[1].frame = rect(5, 0, 11, 5)
        return layout
    }

    /// Arrangement number `index` of a long run of distinct steps: pane 1's width and pane 2's
    /// height vary, and pane 1's state records the index.
    static func step(_ index: Int, name: String = "long") -> LayoutData {
        let width = 3 + index % 10 // 3...12
        let height = 2 + (index / 10) % 7 // 2...8
        return LayoutData(
            name: name, grid: grid,
            panes: [
                Pane(id: 1, app: .calendar, frame: rect(0, 0, width, 10), state: ["step": "\(index)"]),
                Pane(id: 2, app: .eventLog, frame: rect(width, 0, 16 - width, height)),
            ],
            focused: 1
        )
    }
}
