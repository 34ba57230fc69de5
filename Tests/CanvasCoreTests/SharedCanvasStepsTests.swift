import CanvasCore
import Foundation
import Testing
import TestSupport

/// A step on a shared canvas becomes operations (`CanvasOperation.operations(from:to:)`) the
/// server replays by the same rules, and undo takes it back (`inverse(before:)`).
@Suite("Shared canvases: steps as operations, and taking them back")
struct SharedCanvasStepsTests {
    /// Replays `operations` on `before` as the server would.
    private func replay(_ operations: [CanvasOperation], on before: LayoutData) throws -> LayoutData {
        var layout = before
        layout.focused = nil
        for operation in operations { layout = try operation.applied(to: layout) }
        return layout
    }

    private func frames(_ layout: LayoutData) -> [PaneID: Rect] {
        Dictionary(layout.panes.map { ($0.id, $0.frame) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aKeyStepIsTheOneOperationTheUserMeant() throws {
        var manager = try CanvasManager(layout: SharedCanvasTests.start)
        let before = manager.layout
        try manager.movePane(1, .right)  // onto pane 2: they swap
        #expect(CanvasOperation.operations(from: before, to: manager.layout) == [.move(1, to: Point(x: 6, y: 0))])
        var grown = try CanvasManager(layout: SharedCanvasTests.start)
        try grown.resizePane(1, .right)  // pane 2 gives way
        #expect(CanvasOperation.operations(from: before, to: grown.layout) == [.resize(1, to: Size(width: 7, height: 6))])
        var removed = try CanvasManager(layout: SharedCanvasTests.start)
        try removed.removeWidget(3)
        #expect(CanvasOperation.operations(from: before, to: removed.layout) == [.remove(3)])
    }

    @Test(arguments: [1, 2, 0x5EED_CA7A_0029] as [UInt64])
    func everyKeyboardStepIsSaidByOperationsThatReplayIt(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var manager = try CanvasManager(layout: SharedCanvasTests.start)
        var said = 0
        for number in 0..<1500 {
            let before = manager.layout
            let id = before.panes.map(\.id).randomElement(using: &random) ?? 1
            let direction = Direction.allCases.randomElement(using: &random) ?? .left
            var step = ""
            do {
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<40: step = "move \(id) \(direction)"; try manager.movePane(id, direction)
                case 40..<80: step = "resize \(id) \(direction)"; try manager.resizePane(id, direction)
                case 80..<90: step = "add"; try manager.addWidget(NewPane(app: .todo))
                default: step = "remove \(id)"; if before.panes.count > 1 { try manager.removeWidget(id) }
                }
            } catch {
                continue
            }
            guard manager.layout.panes != before.panes else { continue }
            guard let operations = CanvasOperation.operations(from: before, to: manager.layout) else {
                // The one step not said: an add that splits a pane (its shrinking would push
                // others by the resize rules); the host refuses it on a shared canvas.
                let split = before.panes.contains { pane in manager.layout.pane(pane.id).map { $0.frame != pane.frame } ?? false }
                #expect(step == "add" && split, "seed \(seed), step \(number): \(step) has no operations")
                continue
            }
            let replayed = try replay(operations, on: before)
            #expect(frames(replayed) == frames(manager.layout), "seed \(seed), step \(number): \(step)")
            #expect(replayed.panes.map(\.id) == manager.layout.panes.map(\.id))
            said += 1
        }
        #expect(said > 500)
    }

    @Test func aStepTakenBackPutsItsPanesWhereTheyWere() throws {
        let start = SharedCanvasTests.start
        let steps: [CanvasOperation] = [
            .move(1, to: Point(x: 6, y: 0)), .resize(1, to: Size(width: 8, height: 6)), .remove(2), .swap(1, 3),
            .configure(2, ["view": "week"]), .add(Pane(id: 9, app: .todo, frame: Rect(x: 0, y: 0, width: 6, height: 6))),
        ]
        for step in steps {
            var before = start
            if case .add = step { before = try CanvasOperation.remove(1).applied(to: start) }
            let after = try step.applied(to: before)
            let inverse = try #require(step.inverse(before: before), "\(step)")
            let back = try inverse.applied(to: after)
            #expect(frames(back) == frames({ var shared = before; shared.focused = nil; return shared }()), "\(step)")
            #expect(back.panes.map(\.config) == before.panes.map(\.config), "\(step)")
        }
        #expect(CanvasOperation.move(7, to: Point(x: 0, y: 0)).inverse(before: start) == nil)
    }

    @Test func aCopyIsKeptWithItsUnansweredEditsAndGoesOnNumberingThem() throws {
        var replica = CanvasReplica(session: "s", layout: SharedCanvasTests.start, version: 4)
        _ = try replica.edit(.move(1, to: Point(x: 6, y: 0)))
        let kept = try JSONDecoder().decode(CanvasReplica.self, from: JSONEncoder().encode(replica))
        #expect(kept == replica)
        var again = kept
        let next = try again.edit(.remove(3))
        #expect(next.origin == EditOrigin(session: "s", sequence: 2))
        #expect(again.pending.count == 2)
    }
}
