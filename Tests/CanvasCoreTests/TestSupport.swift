@testable import CanvasCore
import TestSupport
import Testing

// Shared builders and checks for the CanvasCore tests.

/// A rectangle in grid units, `x, y, width, height`.
func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Rect {
    Rect(x: x, y: y, width: width, height: height)
}

func pane(_ id: Int, _ frame: Rect, app: AppKind = .calendar) -> Pane {
    Pane(id: PaneID(id), app: app, frame: frame)
}

enum Fixture {
    /// A full 12×12 canvas: pane 1 fills the left half, pane 2 the top right, pane 3 the bottom right.
    static let threePanes: [Pane] = [
        pane(1, rect(0, 0, 6, 12)),
        pane(2, rect(6, 0, 6, 6)),
        pane(3, rect(6, 6, 6, 6)),
    ]

    /// A full 12×12 canvas split into four 6×6 quarters, numbered in reading order.
    static let quarters: [Pane] = [
        pane(1, rect(0, 0, 6, 6)),
        pane(2, rect(6, 0, 6, 6)),
        pane(3, rect(0, 6, 6, 6)),
        pane(4, rect(6, 6, 6, 6)),
    ]
}

func makeManager(
    _ panes: [Pane], grid: GridSpec = .standard, focused: PaneID? = nil, historyLimit: Int = 500
) throws -> CanvasManager {
    try CanvasManager(layout: LayoutData(name: "test", grid: grid, panes: panes, focused: focused),
                      historyLimit: historyLimit)
}

/// Every pane's frame by id.
func frames(_ manager: CanvasManager) -> [PaneID: Rect] {
    Dictionary(uniqueKeysWithValues: manager.panes.map { ($0.id, $0.frame) })
}

/// The area all panes cover together, in grid units (valid layouts never overlap).
func coveredArea(_ manager: CanvasManager) -> Int {
    manager.panes.reduce(0) { $0 + $1.frame.area }
}

/// Checks the arrangement rules hold and no pane was lost or invented.
func expectValid(_ manager: CanvasManager, paneCount: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        try manager.layout.validate()
    } catch {
        Issue.record("layout is invalid: \(error)", sourceLocation: sourceLocation)
    }
    #expect(manager.panes.count == paneCount, sourceLocation: sourceLocation)
}

/// Runs a step that must be refused with an error `matching`, and checks it changed nothing:
/// not the layout, not the undo history, not what can be redone.
func expectRefused(
    _ manager: inout CanvasManager,
    matching: (CanvasError) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ step: (inout CanvasManager) throws -> Void
) {
    let before = manager.layout
    let undoCount = manager.history.undoCount
    let canRedo = manager.canRedo
    do {
        try step(&manager)
        Issue.record("the step succeeded but should have been refused", sourceLocation: sourceLocation)
    } catch let error as CanvasError {
        #expect(matching(error), "unexpected error: \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("not a CanvasError: \(error)", sourceLocation: sourceLocation)
    }
    #expect(manager.layout == before, "a refused step changed the layout", sourceLocation: sourceLocation)
    #expect(manager.history.undoCount == undoCount, "a refused step was recorded", sourceLocation: sourceLocation)
    #expect(manager.canRedo == canRedo, "a refused step touched the redo history", sourceLocation: sourceLocation)
}

/// As `expectRefused(_:matching:_:)`, for one exact error.
func expectRefused(
    _ manager: inout CanvasManager,
    throwing expected: CanvasError,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ step: (inout CanvasManager) throws -> Void
) {
    expectRefused(&manager, matching: { $0 == expected }, sourceLocation: sourceLocation, step)
}
