import CanvasCore
import Foundation
import Testing
import TestSupport

/// A shared canvas's core: the operations, the server's order (`CanvasLog`) and each dashboard's
/// copy (`CanvasReplica`), without a server or a screen.
@Suite("Shared canvases: operations, the server's order and converging copies")
struct SharedCanvasTests {
    static let start = LayoutData(name: "on-call", panes: [
        Pane(id: 1, app: .todo, frame: Rect(x: 0, y: 0, width: 6, height: 6)),
        Pane(id: 2, app: .calendar, frame: Rect(x: 6, y: 0, width: 6, height: 6)),
        Pane(id: 3, app: .chat, frame: Rect(x: 0, y: 6, width: 12, height: 6)),
    ], focused: 1)

    @Test func operationsFollowTheArrangementRulesAndCarryNoFocus() throws {
        // Moving onto another pane swaps with it, as in arrange mode.
        let moved = try CanvasOperation.move(1, to: Point(x: 6, y: 0)).applied(to: Self.start)
        #expect(moved.pane(1)?.frame == Rect(x: 6, y: 0, width: 6, height: 6))
        #expect(moved.pane(2)?.frame == Rect(x: 0, y: 0, width: 6, height: 6))
        #expect(moved.focused == nil)
        // Growing takes room from the neighbour on that side.
        let grown = try CanvasOperation.resize(1, to: Size(width: 8, height: 6)).applied(to: Self.start)
        #expect(grown.pane(2)?.frame == Rect(x: 8, y: 0, width: 4, height: 6))
        #expect(throws: CanvasError.unknownPane(9)) { try CanvasOperation.remove(9).applied(to: Self.start) }
        #expect(throws: CanvasError.overlap(4, 1)) {
            try CanvasOperation.add(Pane(id: 4, app: .todo, frame: Rect(x: 0, y: 0, width: 2, height: 2))).applied(to: Self.start)
        }
        // Removing gives the room to the neighbours; adding where they grew takes it back.
        let removed = try CanvasOperation.remove(3).applied(to: Self.start)
        #expect(removed.panes.map(\.frame) == [Rect(x: 0, y: 0, width: 6, height: 12), Rect(x: 6, y: 0, width: 6, height: 12)])
        let back = try CanvasOperation.add(Self.start.panes[2]).applied(to: removed)
        #expect(back.panes.map(\.frame) == [Rect(x: 0, y: 0, width: 6, height: 6), Rect(x: 6, y: 0, width: 6, height: 6), Rect(x: 0, y: 6, width: 12, height: 6)])
        // A pane it lands on is never split in two nor left below the minimum.
        #expect(throws: CanvasError.overlap(4, 1)) {
            try CanvasOperation.add(Pane(id: 4, app: .todo, frame: Rect(x: 0, y: 4, width: 6, height: 1))).applied(to: removed)
        }
        #expect(throws: CanvasError.neighbourAtMinimum(1)) {
            try CanvasOperation.add(Pane(id: 4, app: .todo, frame: Rect(x: 0, y: 1, width: 6, height: 11))).applied(to: removed)
        }
        let swapped = try CanvasOperation.swap(1, 3).applied(to: Self.start)
        #expect(swapped.pane(1)?.frame == Rect(x: 0, y: 6, width: 12, height: 6))
    }

    @Test func onTheWireAnOperationIsOneFlatObjectNamedByOp() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let move = String(decoding: try encoder.encode(CanvasOperation.move(3, to: Point(x: 0, y: 6))), as: UTF8.self)
        #expect(move == #"{"op":"move","pane":3,"to":{"x":0,"y":6}}"#)
        let all: [CanvasOperation] = [
            .add(Pane(id: 7, app: .todo, frame: Rect(x: 0, y: 0, width: 2, height: 2), config: ["a": "b"], state: ["c": "d"])),
            .remove(3), .remove(3, refill: false), .move(3, to: Point(x: 1, y: 2)), .resize(3, to: Size(width: 4, height: 5)), .swap(1, 2),
            .configure(3, ["k": "v"]), .setState(3, ["s": "t"]),
        ]
        for operation in all {
            #expect(try JSONDecoder().decode(CanvasOperation.self, from: try encoder.encode(operation)) == operation)
        }
        // A removal stored before neighbours took the room back replays as it was made.
        let stored = try JSONDecoder().decode(CanvasOperation.self, from: Data(#"{"op":"remove","pane":3}"#.utf8))
        #expect(stored == .remove(3, refill: false))
        #expect(try stored.applied(to: Self.start).panes.map(\.frame) == Self.start.panes.prefix(2).map(\.frame))
        #expect(String(decoding: try encoder.encode(CanvasOperation.remove(3)), as: UTF8.self) == #"{"op":"remove","pane":3,"refill":true}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CanvasOperation.self, from: Data(#"{"op":"explode","pane":1}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CanvasOperation.self, from: Data(#"{"op":"move","pane":1e400}"#.utf8)) }
    }

    /// Numbers at the edge of what JSON carries are refused before any arithmetic on them (a
    /// frame's right edge computed from `Int.max` would end the server).
    @Test func hostileNumbersAreRefusedNotTrapped() {
        for operation: CanvasOperation in [
            .move(1, to: Point(x: Int.max, y: 0)), .move(1, to: Point(x: 0, y: Int.min)),
            .resize(1, to: Size(width: Int.max, height: 2)), .resize(1, to: Size(width: 2, height: Int.min)),
            .add(Pane(id: 9, app: .todo, frame: Rect(x: Int.max - 1, y: 0, width: 5, height: 5))),
            .add(Pane(id: 9, app: .todo, frame: Rect(x: 0, y: 0, width: Int.max, height: Int.max))),
        ] {
            #expect(throws: CanvasError.self) { try operation.applied(to: Self.start) }
        }
    }

    @Test func theServerNumbersNewPanesAndAnswersAnEditOnce() {
        var log = CanvasLog(layout: Self.start)
        let origin = EditOrigin(session: "a", sequence: 1)
        let wide = Rect(x: 0, y: 0, width: 12, height: 6)
        _ = log.submit(.remove(1), author: "alice", origin: EditOrigin(session: "a", sequence: 1))
        _ = log.submit(.remove(2), author: "alice", origin: EditOrigin(session: "a", sequence: 2))
        // Removed ids are never given again: the new pane is 4, not the 1 its author proposed.
        let added = log.submit(.add(Pane(id: 1, app: .todo, frame: wide)), author: "alice", origin: EditOrigin(session: "a", sequence: 3))
        #expect(added == .ordered(CanvasChange(version: 3, author: "alice", origin: EditOrigin(session: "a", sequence: 3),
                                               operation: .add(Pane(id: 4, app: .todo, frame: wide)))))
        #expect(log.submit(.remove(3), author: "alice", origin: origin) == .repeated)
        #expect(log.submit(.remove(1), author: "bob", origin: EditOrigin(session: "b", sequence: 1))
            == .refused(EditOrigin(session: "b", sequence: 1), .unknownPane(1)))
        #expect(log.version == 3 && log.answered == ["a": 3, "b": 1])
    }

    @Test func twoMovesOfOnePaneAtOnceEndAsTheServerOrderedThem() throws {
        var log = CanvasLog(layout: Self.start)
        var alice = CanvasReplica(session: "a", layout: Self.start, version: 0)
        var bob = CanvasReplica(session: "b", layout: Self.start, version: 0)
        let fromAlice = try alice.edit(.move(3, to: Point(x: 0, y: 0)))
        let fromBob = try bob.edit(.resize(3, to: Size(width: 12, height: 4)))
        // Each sees their own edit at once.
        #expect(alice.shown.pane(3)?.frame.origin == Point(x: 0, y: 0))
        #expect(bob.shown.pane(3)?.frame.size == Size(width: 12, height: 4))
        // Bob's arrives first.
        guard case .ordered(let first) = log.submit(fromBob.operation, author: "bob", origin: fromBob.origin),
              case .ordered(let second) = log.submit(fromAlice.operation, author: "alice", origin: fromAlice.origin)
        else { Issue.record("refused"); return }
        for change in [first, second] {
            #expect(alice.receive(change) == .applied(renamed: nil))
            #expect(bob.receive(change) == .applied(renamed: nil))
        }
        #expect(alice.shown == log.layout && bob.shown == log.layout && alice.pending.isEmpty && bob.pending.isEmpty)
    }

    @Test func anAddedPaneIsRenamedInTheEditsThatFollowIt() throws {
        var log = CanvasLog(layout: LayoutData(name: "x"))
        var alice = CanvasReplica(session: "a", layout: LayoutData(name: "x"), version: 0)
        let add = try alice.edit(.add(Pane(id: 1, app: .todo, frame: Rect(x: 0, y: 0, width: 4, height: 4))))
        guard case .add(let local) = add.operation else { Issue.record("\(add)"); return }
        #expect(local.id.rawValue > 1_000_000_000, "a local id the server never gives")
        let move = try alice.edit(.move(local.id, to: Point(x: 4, y: 4)))
        guard case .ordered(let added) = log.submit(add.operation, author: "alice", origin: add.origin) else { return }
        #expect(alice.receive(added) == .applied(renamed: (from: local.id, to: 1)))
        #expect(alice.pending.map(\.operation) == [.move(1, to: Point(x: 4, y: 4))])
        guard case .ordered(let moved) = log.submit(alice.pending[0].operation, author: "alice", origin: move.origin) else { return }
        _ = alice.receive(moved)
        #expect(alice.shown == log.layout && log.layout.pane(1)?.frame.origin == Point(x: 4, y: 4))
    }

    @Test func aRefusedEditDisappearsAndAMissedChangeAsksForAReset() throws {
        var alice = CanvasReplica(session: "a", layout: Self.start, version: 0)
        let edit = try alice.edit(.remove(2))
        #expect(alice.shown.pane(2) == nil)
        alice.refused(edit.origin)
        #expect(alice.shown == alice.confirmed && alice.shown.pane(2) != nil)
        let late = CanvasChange(version: 2, author: "bob", origin: EditOrigin(session: "b", sequence: 2), operation: .remove(1))
        #expect(alice.receive(late) == .outOfStep(expected: 1))
    }

    // MARK: Convergence

    /// Two members edit one canvas at once over queues that deliver in order but late, and either
    /// may lose its connection and come back with a reset and its unanswered edits sent again. Whatever the interleaving, no edit takes effect
    /// twice, and once every queue is empty both copies show the server's layout and nothing is
    /// pending.
    @Test(arguments: [false, true])
    func everyInterleavingOfTwoMembersEditsConverges(reconnects: Bool) throws {
        let seed: UInt64 = 0x5EED_CA7A_0029
        var random = SplitMix64(seed: seed)
        for round in 0..<1500 {
            var run = Simulation(start: Self.start)
            var edits = [Int.random(in: 1...5, using: &random), Int.random(in: 1...5, using: &random)]
            while edits != [0, 0] || !run.isQuiet {
                let member = Int.random(in: 0...1, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3 where edits[member] > 0:
                    edits[member] -= 1
                    run.edit(member, using: &random)
                case 3..<6:
                    run.serve(member)
                case 6..<9:
                    try run.deliver(member)
                case 9 where reconnects:
                    run.reconnect(member)
                default:
                    break
                }
            }
            for member in 0...1 {
                let copy = run.copies[member]
                #expect(copy.pending.isEmpty && copy.shown == run.log.layout && copy.version == run.log.version,
                        "seed \(seed), round \(round), member \(member): \(copy.shown.panes) vs \(run.log.layout.panes)")
            }
        }
    }

    /// The server and two copies, with a queue each way per member.
    struct Simulation {
        enum Message { case change(CanvasChange), refused(EditOrigin) }

        var log: CanvasLog
        var copies: [CanvasReplica]
        var toServer: [[CanvasReplica.PendingEdit]] = [[], []]
        var toMember: [[Message]] = [[], []]
        var ordered: Set<EditOrigin> = []
        let authors = ["alice", "bob"]

        init(start: LayoutData) {
            log = CanvasLog(layout: start)
            copies = [CanvasReplica(session: "alice-1", layout: start, version: 0), CanvasReplica(session: "bob-1", layout: start, version: 0)]
        }

        var isQuiet: Bool { toServer.allSatisfy(\.isEmpty) && toMember.allSatisfy(\.isEmpty) }

        /// A random edit of what the member sees (one that does not apply there is not sent).
        mutating func edit(_ member: Int, using random: inout SplitMix64) {
            let ids = copies[member].shown.panes.map(\.id) + [PaneID(Int.random(in: 1...6, using: &random))]
            let id = ids.randomElement(using: &random)!
            let other = ids.randomElement(using: &random)!
            let operation: CanvasOperation = switch Int.random(in: 0..<7, using: &random) {
            case 0: .add(Pane(id: 1, app: .todo, frame: Rect(x: Int.random(in: 0...10, using: &random), y: Int.random(in: 0...10, using: &random),
                                                         width: Int.random(in: 2...6, using: &random), height: Int.random(in: 2...6, using: &random))))
            case 1: .remove(id)
            case 2: .move(id, to: Point(x: Int.random(in: 0...10, using: &random), y: Int.random(in: 0...10, using: &random)))
            case 3: .resize(id, to: Size(width: Int.random(in: 2...8, using: &random), height: Int.random(in: 2...8, using: &random)))
            case 4: .swap(id, other)
            case 5: .configure(id, ["n": "\(Int.random(in: 0...9, using: &random))"])
            default: .setState(id, ["s": "\(Int.random(in: 0...9, using: &random))"])
            }
            if let sent = try? copies[member].edit(operation) { toServer[member].append(sent) }
        }

        /// The server answers the member's oldest edit in flight.
        mutating func serve(_ member: Int) {
            guard !toServer[member].isEmpty else { return }
            let edit = toServer[member].removeFirst()
            switch log.submit(edit.operation, author: authors[member], origin: edit.origin) {
            case .ordered(let change):
                // An edit sent twice (after a reconnect) takes effect once.
                #expect(ordered.insert(change.origin).inserted, "\(change.origin) ordered twice")
                for other in 0...1 { toMember[other].append(.change(change)) }
            case .refused(let origin, _):
                toMember[member].append(.refused(origin))
            case .repeated:
                break
            }
        }

        /// The member reads the oldest message for it.
        mutating func deliver(_ member: Int) throws {
            guard !toMember[member].isEmpty else { return }
            switch toMember[member].removeFirst() {
            case .change(let change):
                let receipt = copies[member].receive(change)
                try #require(receipt != .outOfStep(expected: copies[member].version + 1), "a change in order was refused")
            case .refused(let origin):
                copies[member].refused(origin)
            }
        }

        /// The member's connection drops: what was on its way to the member is lost, while its
        /// edits in flight may still reach the server; it comes back with the server's layout and
        /// sends every unanswered edit again (so the server sees some twice).
        mutating func reconnect(_ member: Int) {
            toMember[member] = []
            let session = copies[member].session
            copies[member].reset(to: log.layout, version: log.version, answeredUpTo: log.answered[session, default: 0])
            toServer[member] += copies[member].pending
        }
    }
}
