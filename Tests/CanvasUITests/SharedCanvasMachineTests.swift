import CanvasCore
@testable import CanvasUI
import Testing

/// The shared canvas as a value, with no host: what goes in (steps taken here, the server's
/// answers, the live stream) and the effects that come out.
@Suite("The shared canvas machine")
struct SharedCanvasMachineTests {
    static let canvas: Int64 = 7
    /// Two panes side by side: 1 at 0,0 5×12, 2 at 5,0 7×12.
    static let layout = LayoutData(name: "ops", panes: [
        Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 5, height: 12)),
        Pane(id: 2, app: .eventLog, frame: Rect(x: 5, y: 0, width: 7, height: 12)),
    ], focused: 1)

    static func copy(_ role: CanvasRole = .editor) -> SharedCanvasCopy {
        SharedCanvasCopy(canvas: canvas, owner: "alice", role: role, replica: CanvasReplica(session: "here", layout: layout, version: 3))
    }

    static func opened(_ role: CanvasRole = .editor) -> SharedCanvasMachine {
        var machine = SharedCanvasMachine()
        _ = machine.open(copy(role))
        return machine
    }

    /// The operations the effects send to the server.
    static func sent(_ effects: [SharedCanvasMachine.Effect]) -> [CanvasOperation] {
        effects.flatMap { effect -> [CanvasOperation] in
            guard case .request(.send(canvas, let edits)) = effect else { return [] }
            return edits.map(\.operation)
        }
    }

    static func change(_ version: Int, by author: String, session: String, _ operation: CanvasOperation) -> SharedCanvasNews {
        .changed(CanvasChange(version: version, author: author, origin: EditOrigin(session: session, sequence: 1), operation: operation))
    }

    @Test func openingReplacesTheCanvasAndAsksTheServerAndASecondOpenClosesTheFirst() {
        var machine = SharedCanvasMachine()
        #expect(machine.open(Self.copy()) == [
            .replaceCanvas, .show(focus: nil, keepingWidgetState: false), .announce(step: "load ops"),
            .request(.catchUp(canvas: Self.canvas, session: "here")),
        ])
        var other = Self.copy()
        other.canvas = 8
        #expect(machine.open(other).first == .request(.close(canvas: Self.canvas, session: "here")))
        #expect(machine.copy?.canvas == 8)
        #expect(machine.close() == [.request(.close(canvas: 8, session: "here"))] && machine.copy == nil)
        #expect(machine.close().isEmpty)
    }

    @Test func aViewerIsToldWhyAndTheServerAskedAgainAnEditorIsNot() {
        let viewer = Self.opened(.viewer)
        #expect(viewer.refusalToArrange() == [
            .tell(.error("Read-only: alice shared ops with you as a viewer; ask them to make you an editor")),
            .request(.catchUp(canvas: Self.canvas, session: "here")),
        ])
        #expect(Self.opened(.editor).refusalToArrange().isEmpty && SharedCanvasMachine().refusalToArrange().isEmpty)
    }

    @Test func aStepIsSentKeptAndAnnouncedAndUndoSendsItsInverse() {
        var machine = Self.opened()
        // Pane 1 grows into pane 2, as Shift-Right does: one operation says it.
        var after = Self.layout
        after.panes[0].frame.size.width = 6
        after.panes[1].frame = Rect(x: 6, y: 0, width: 6, height: 12)
        let effects = machine.step("resize", before: Self.layout, after: after)
        #expect(Self.sent(effects) == [.resize(1, to: Size(width: 6, height: 12))])
        #expect(effects.contains(.announce(step: "resize")) && effects.contains(.show(focus: 1)))
        #expect(effects.contains { if case .keep(let kept) = $0 { kept.replica.pending.count == 1 } else { false } })
        #expect(Self.sent(machine.replay(undo: true, focus: 1)) == [.resize(1, to: Size(width: 5, height: 12))])
        #expect(Self.sent(machine.replay(undo: false, focus: 1)) == [.resize(1, to: Size(width: 6, height: 12))])
        #expect(machine.replay(undo: false, focus: 1) == [.tell(.info("Nothing to redo"))])
    }

    @Test func aStepThatChangesNoPaneSendsNothingAndShowsTheCopyAgain() {
        var machine = Self.opened()
        var after = Self.layout
        after.focused = 2
        #expect(machine.step("focus", before: Self.layout, after: after) == [.show(focus: 1)])
        #expect(machine.copy?.replica.pending.isEmpty == true)
    }

    @Test func anotherMembersChangeIsAnnouncedOwnEchoesAreNotAndAGapCatchesUp() {
        var machine = Self.opened()
        let moved = Self.change(4, by: "bob", session: "there", .swap(1, 2))
        let before = machine.copy?.replica.shown
        let effects = machine.receive(moved, canvas: Self.canvas, focus: 1)
        #expect(effects.first == .show(focus: 1, settingsFrom: before))
        guard case .announceChange(let change)? = effects.last else { return #expect(Bool(false), "\(effects)") }
        #expect(change.author == "bob")
        // A change already applied is known; one past a gap asks for the canvas again.
        #expect(machine.receive(moved, canvas: Self.canvas, focus: 1).isEmpty)
        #expect(machine.receive(Self.change(9, by: "bob", session: "there", .swap(1, 2)), canvas: Self.canvas, focus: 1)
            == [.request(.catchUp(canvas: Self.canvas, session: "here"))])
        // News of another canvas is not this one's.
        #expect(machine.receive(Self.change(5, by: "bob", session: "there", .swap(1, 2)), canvas: 8, focus: 1).isEmpty)
        // This copy's own edit coming back is not announced.
        var after = machine.copy!.replica.shown
        after.panes[0].frame.size.height = 11
        _ = machine.step("resize", before: machine.copy!.replica.shown, after: after)
        let own = machine.receive(.changed(CanvasChange(version: 5, author: "carol", origin: EditOrigin(session: "here", sequence: 1),
                                                        operation: .resize(2, to: Size(width: 7, height: 11)))), canvas: Self.canvas, focus: 1)
        #expect(!own.contains { if case .announceChange = $0 { true } else { false } } && machine.copy?.replica.pending.isEmpty == true)
    }

    @Test func aCatchUpThatMakesTheUserAViewerSaysSoAndLeavesArrangeMode() {
        var machine = Self.opened()
        let effects = machine.receive(.caughtUp(layout: Self.layout, version: 3, answered: 0, role: .viewer), canvas: Self.canvas, focus: 1)
        #expect(effects.prefix(2) == [.tell(.info("You are a viewer of ops now")), .leaveArrangeMode])
        #expect(machine.copy?.role == .viewer && !machine.refusalToArrange().isEmpty)
    }

    @Test func theLiveStreamsPresenceIsKeptAndAReconnectCatchesUp() {
        var machine = Self.opened()
        let effects = machine.live([SharedCanvasPresence(canvas: 12, present: ["bob"]), ServerStreamConnected()], focus: 1)
        #expect(machine.presence == [12: ["bob"]])
        #expect(effects == [.request(.catchUp(canvas: Self.canvas, session: "here"))])
        var closed = SharedCanvasMachine()
        #expect(closed.live([ServerStreamConnected()], focus: nil).isEmpty)
    }

    @Test func aLayoutOfTheServerWithNoCopyHereIsFetched() {
        var machine = SharedCanvasMachine()
        let listed = LayoutSummary(name: "ops", paneCount: 2, updatedAt: nil, isPreset: false, sharing: .init(canvas: 12, owner: "bob", role: .editor))
        _ = machine.receive(.listed([listed]), canvas: nil, focus: nil)
        #expect(machine.openServerLayout("ops") == [.request(.fetch(canvas: 12))])
        #expect(machine.openServerLayout("mine") == nil)
    }
}

extension SharedCanvasMachineTests {
    /// A catch-up may bring others' changes before the stream does (both come as it reconnects):
    /// then the change is said as one, and the stream's own word of it later is already known.
    @Test func aCatchUpThatBringsOthersChangesSaysSoAndTheirLiveEventIsKnown() {
        var machine = Self.opened(.viewer)
        var resized = Self.layout
        resized.panes[0].frame = Rect(x: 0, y: 0, width: 4, height: 12)
        let caught = machine.receive(.caughtUp(layout: resized, version: 4, answered: 0, role: .viewer), canvas: Self.canvas, focus: 1)
        #expect(caught.contains(.tell(.info("Caught up: ops changed on the server meanwhile"))))
        let live = machine.receive(Self.change(4, by: "alice", session: "there", .resize(1, to: Size(width: 4, height: 12))),
                                   canvas: Self.canvas, focus: 1)
        #expect(live.isEmpty)
        // A catch-up that brings nothing new says nothing.
        #expect(!machine.receive(.caughtUp(layout: resized, version: 4, answered: 0, role: .viewer), canvas: Self.canvas, focus: 1)
            .contains { if case .tell = $0 { true } else { false } })
    }
}
