@testable import CanvasCore
import Foundation
import Testing

@Suite("Arrangement: loading layouts and initializing the grid")
struct LoadLayoutTests {
    static func layout(_ panes: [Pane], grid: GridSpec = .standard, focused: PaneID? = nil) -> LayoutData {
        LayoutData(name: "loaded", grid: grid, panes: panes, focused: focused)
    }

    static func isInvalidGrid(_ error: CanvasError) -> Bool {
        if case .invalidGrid = error { true } else { false }
    }

    @Test func loadingReplacesTheLayoutAndStartsAFreshHistory() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.movePane(2, .down)
        manager.undo()
        #expect(manager.canRedo)

        let quarters = Self.layout(Fixture.quarters, focused: 3)
        try manager.loadLayout(quarters)

        #expect(manager.layout == quarters)
        #expect(manager.saveLayout() == quarters)
        #expect(manager.focusedPaneID == 3)
        #expect(!manager.canUndo)
        #expect(!manager.canRedo)
        #expect(manager.undo() == false)
        expectValid(manager, paneCount: 4)
    }

    @Test func loadingWithoutFocusFocusesPaneOne() throws {
        var manager = try CanvasManager()
        try manager.loadLayout(Self.layout([pane(5, rect(6, 0, 6, 6)), pane(2, rect(0, 0, 6, 6))]))
        #expect(manager.focusedPaneID == 5)
        #expect(try manager.addWidget(NewPane(app: .calendar, frame: rect(0, 6, 6, 6))) == 6)
    }

    @Test func loadingKeepsTheHistoryLimit() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 2, 2))], historyLimit: 2)
        try manager.loadLayout(Self.layout([pane(1, rect(0, 0, 2, 2))]))
        for x in 1...4 { try manager.updateWidgetPosition(1, to: Point(x: x, y: 0)) }
        #expect(manager.undo() == true)
        #expect(manager.undo() == true)
        #expect(manager.undo() == false)
        #expect(manager.pane(1)?.frame == rect(2, 0, 2, 2))
    }

    @Test func loadingAnOverlappingLayoutIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.movePane(2, .down)
        let bad = Self.layout([pane(1, rect(0, 0, 6, 6)), pane(2, rect(5, 5, 4, 4))])
        expectRefused(&manager, throwing: .overlap(2, 1)) { try $0.loadLayout(bad) }
        #expect(manager.canUndo, "the history survives a refused load")
    }

    @Test func loadingDuplicateIdsIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        let bad = Self.layout([pane(1, rect(0, 0, 6, 6)), pane(1, rect(6, 0, 6, 6))])
        expectRefused(&manager, throwing: .duplicatePane(1)) { try $0.loadLayout(bad) }
    }

    @Test func loadingPanesOutsideTheGridIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        let bad = Self.layout([pane(1, rect(0, 0, 6, 6)), pane(2, rect(8, 8, 6, 6))])
        expectRefused(&manager, throwing: .outOfGrid(2, rect(8, 8, 6, 6))) { try $0.loadLayout(bad) }
        let small = Self.layout([pane(1, rect(0, 0, 4, 4))], grid: GridSpec(columns: 3, rows: 3))
        expectRefused(&manager, throwing: .outOfGrid(1, rect(0, 0, 4, 4))) { try $0.loadLayout(small) }
    }

    @Test func loadingPanesBelowTheMinimumIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        let bad = Self.layout([pane(1, rect(0, 0, 4, 4))], grid: GridSpec(minimumPaneSize: Size(width: 5, height: 3)))
        expectRefused(&manager, throwing: .belowMinimumSize(1, minimum: Size(width: 5, height: 3))) { try $0.loadLayout(bad) }
    }

    @Test func loadingAnUnknownFocusedIdIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        let bad = Self.layout(Fixture.quarters, focused: 9)
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.loadLayout(bad) }
    }

    @Test func loadingAnInvalidGridIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        let bad = Self.layout([], grid: GridSpec(columns: 0, rows: 12))
        expectRefused(&manager, matching: Self.isInvalidGrid) { try $0.loadLayout(bad) }
    }

    @Test func creatingAManagerValidatesItsLayout() {
        #expect(throws: CanvasError.overlap(2, 1)) {
            try CanvasManager(layout: Self.layout([pane(1, rect(0, 0, 6, 6)), pane(2, rect(0, 0, 6, 6))]))
        }
    }

    @Test func initializeGridStartsAnEmptyCanvasWithAFreshHistory() throws {
        var manager = try makeManager(Fixture.threePanes)
        manager.rename(to: "mine")
        try manager.movePane(2, .down)
        let grid = GridSpec(columns: 8, rows: 6, minimumPaneSize: Size(width: 3, height: 1))
        try manager.initializeGrid(grid)

        #expect(manager.grid == grid)
        #expect(manager.panes.isEmpty)
        #expect(manager.focusedPaneID == nil)
        #expect(manager.layout.name == "mine")
        #expect(!manager.canUndo)
        // Ids are not reused after a re-initialized grid.
        #expect(try manager.addWidget(NewPane(app: .calendar)) == 4)
        #expect(manager.pane(4)?.frame == rect(0, 0, 8, 6))
    }

    @Test(arguments: [
        GridSpec(columns: 0, rows: 12),
        GridSpec(columns: 12, rows: 0),
        GridSpec(columns: 65, rows: 12),
        GridSpec(columns: 12, rows: 65),
        GridSpec(columns: -1, rows: 4),
        GridSpec(columns: 12, rows: 12, minimumPaneSize: Size(width: 0, height: 2)),
        GridSpec(columns: 12, rows: 12, minimumPaneSize: Size(width: 2, height: 0)),
        GridSpec(columns: 4, rows: 4, minimumPaneSize: Size(width: 5, height: 2)),
        GridSpec(columns: 4, rows: 4, minimumPaneSize: Size(width: 2, height: 5)),
    ])
    func initializeGridRefusesUnusableGrids(grid: GridSpec) throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.movePane(2, .down)
        expectRefused(&manager, matching: Self.isInvalidGrid) { try $0.initializeGrid(grid) }
    }

    @Test(arguments: [
        GridSpec(columns: 1, rows: 1, minimumPaneSize: Size(width: 1, height: 1)),
        GridSpec(columns: 64, rows: 64),
        GridSpec(columns: 4, rows: 4, minimumPaneSize: Size(width: 4, height: 4)),
    ])
    func initializeGridAcceptsEdgeGrids(grid: GridSpec) throws {
        var manager = try CanvasManager()
        try manager.initializeGrid(grid)
        #expect(manager.grid == grid)
        let id = try manager.addWidget(NewPane(app: .calendar))
        #expect(manager.pane(id)?.frame == grid.bounds)
    }

    @Test func layoutRoundTripsThroughJSON() throws {
        var layout = Self.layout(Fixture.threePanes, focused: 2)
        layout.panes[0].config = ["month": "2026-11"]
        layout.panes[0].state = ["selected": "2026-11-22"]
        let data = try JSONEncoder().encode(layout)
        #expect(try JSONDecoder().decode(LayoutData.self, from: data) == layout)
    }
}

/// A pane's id and an app's kind are written as their plain value, as layouts have always kept them.
@Suite struct IdentifierCodingTests {
    @Test func idsAndKindsAreTheirRawValues() throws {
        let json = String(decoding: try JSONEncoder().encode(Pane(id: 3, app: .todo, frame: Rect(x: 0, y: 0, width: 6, height: 12))),
                          as: UTF8.self)
        #expect(json.contains(#""id":3"#) && json.contains(#""app":"todo""#), "\(json)")
        #expect(try JSONDecoder().decode([PaneID].self, from: Data("[7]".utf8)) == [7])
        #expect(try JSONDecoder().decode([AppKind].self, from: Data(#"["chat"]"#.utf8)) == [.chat])
    }
}
