@testable import CanvasCore
import TestSupport
import Testing

@Suite("Arrangement: random steps keep the rules")
struct ArrangementPropertyTests {
    enum Outcome { case succeeded, refused }

    @Test(arguments: [1, 2, 3, 0xC0FFEE] as [UInt64])
    func randomStepsKeepTheLayoutValid(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var manager = try makeManager(Fixture.threePanes)
        var highestID: PaneID = 3
        var outcomes: [Outcome] = []

        for stepNumber in 0..<2500 {
            let before = manager.layout
            let undoCount = manager.history.undoCount
            let canRedo = manager.canRedo
            // Mostly existing panes, now and then one that does not exist.
            let id = Int.random(in: 0..<20, using: &rng) == 0
                ? PaneID(999) : (before.panes.map(\.id).randomElement(using: &rng) ?? 999)
            let direction = Direction.allCases.randomElement(using: &rng)!
            let roll = Int.random(in: 0..<100, using: &rng)
            var expectedCount = before.panes.count
            var added: PaneID?
            var step = ""
            let context = { "seed \(seed), step \(stepNumber) (\(step))" }

            do {
                switch roll {
                case 0..<30:
                    step = "move \(id) \(direction)"
                    try manager.movePane(id, direction)
                case 30..<55:
                    step = "resize \(id) \(direction)"
                    try manager.resizePane(id, direction)
                case 55..<62:
                    let origin = Point(x: Int.random(in: -1...11, using: &rng), y: Int.random(in: -1...11, using: &rng))
                    step = "move \(id) to \(origin)"
                    try manager.updateWidgetPosition(id, to: origin)
                case 62..<70:
                    let size = Size(width: Int.random(in: 1...12, using: &rng), height: Int.random(in: 1...12, using: &rng))
                    step = "resize \(id) to \(size)"
                    try manager.updateWidgetSize(id, to: size)
                case 70..<82:
                    var new = NewPane(app: .calendar)
                    if Bool.random(using: &rng) {
                        new.frame = rect(Int.random(in: 0..<12, using: &rng), Int.random(in: 0..<12, using: &rng),
                                         Int.random(in: 1...6, using: &rng), Int.random(in: 1...6, using: &rng))
                    }
                    step = "add at \(new.frame.map(\.description) ?? "any free place")"
                    expectedCount += 1
                    added = try manager.addWidget(new)
                case 82..<94:
                    step = "remove \(id)"
                    expectedCount -= 1
                    try manager.removeWidget(id)
                default:
                    step = "undo, redo"
                    expectedCount = -1
                    if Bool.random(using: &rng) { manager.undo() } else { manager.redo() }
                }
            } catch {
                // A refused step changes nothing at all.
                try #require(manager.layout == before, "refused with \(error) but changed the layout: \(context())")
                try #require(manager.history.undoCount == undoCount, "refused with \(error) but recorded: \(context())")
                try #require(manager.canRedo == canRedo, "refused with \(error) but touched redo: \(context())")
                outcomes.append(.refused)
                continue
            }

            // A step that went through leaves a valid layout with no pane lost or invented.
            do {
                try manager.layout.validate()
            } catch {
                Issue.record("invalid layout (\(error)) after \(context()): \(manager.layout.panes.map(\.frame))")
                return
            }
            if expectedCount >= 0 {
                try #require(manager.panes.count == expectedCount, "pane count after \(context())")
            }
            if let added {
                // New ids are fresh, and the new pane has focus.
                try #require(added > highestID, "id \(added) reused after \(context())")
                try #require(manager.focusedPaneID == added, "focus after \(context())")
                highestID = added
            }
            if !manager.panes.isEmpty {
                try #require(manager.focusedPaneID != nil, "no focus after \(context())")
            }
            outcomes.append(.succeeded)
        }

        // The run exercised both kinds of outcome a fair number of times.
        #expect(outcomes.count == 2500)
        #expect(outcomes.filter { $0 == .succeeded }.count > 500)
        #expect(outcomes.filter { $0 == .refused }.count > 200)
    }

    @Test func splitMixIsDeterministic() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        #expect(first != (0..<5).map { _ in c.next() })
        #expect(Set(first).count == 5)
    }
}
