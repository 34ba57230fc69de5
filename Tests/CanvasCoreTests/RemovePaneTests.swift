@testable import CanvasCore
import Testing

@Suite("Arrangement: removing panes")
struct RemovePaneTests {
    @Test func removingTheFocusedPaneFocusesTheNextNumbered() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 2)
        try manager.removeWidget(2)
        #expect(frames(manager) == [1: rect(0, 0, 6, 12), 3: rect(6, 6, 6, 6)])
        #expect(manager.focusedPaneID == 3)
        #expect(manager.number(of: 3) == 2)
        #expect(manager.number(of: 2) == nil)
        expectValid(manager, paneCount: 2)
    }

    @Test func removingTheLastNumberedFocusedPaneFocusesTheOneBefore() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 3)
        try manager.removeWidget(3)
        #expect(manager.focusedPaneID == 2)
        expectValid(manager, paneCount: 2)
    }

    @Test func removingAnotherPaneKeepsFocus() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 1)
        try manager.removeWidget(2)
        #expect(manager.focusedPaneID == 1)
        #expect(manager.panes.map(\.id) == [1, 3])
        expectValid(manager, paneCount: 2)
    }

    @Test func removingTheOnlyPaneLeavesNoFocus() throws {
        var manager = try makeManager([pane(4, rect(0, 0, 12, 12))])
        try manager.removeWidget(4)
        #expect(manager.panes.isEmpty)
        #expect(manager.focusedPaneID == nil)
        #expect(manager.focusedPane == nil)
        expectValid(manager, paneCount: 0)
    }

    @Test func removingAnUnknownPaneIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.removeWidget(9) }
    }

    @Test func removedIdsAreNotReused() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.removeWidget(3)
        #expect(try manager.addWidget(NewPane(app: .calendar)) == 4)
    }
}
