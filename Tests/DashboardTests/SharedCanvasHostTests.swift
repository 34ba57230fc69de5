import CanvasCore
@testable import CanvasUI
import Foundation
import LayoutStore
@testable import termcanvas
import Testing

/// A shared canvas in the host: steps leave as operations, other members' changes come in, a
/// viewer is read-only, undo takes back one's own edits only, and the copy is kept. The host's
/// `update` only; the server and the link are the end-to-end tests'.
@MainActor
@Suite("Shared canvases in the host")
struct SharedCanvasHostTests {
    static let canvas: Int64 = 7

    /// A rig showing the tests' `default` (calendar 1 at 0,0 5×12 focused, event log 2 at 5,0
    /// 7×12) as the shared canvas 7, at version 3, as `role`.
    func sharedRig(_ role: CanvasRole = .editor, ports: HostPorts = HostPorts()) throws -> (Rig, [HostEffect]) {
        let rig = try Rig(ports: ports, start: nil)
        _ = rig.host.update(.input(.resize(Fixed.size)))
        let copy = SharedCanvasCopy(canvas: Self.canvas, owner: "alice", role: role,
                                    replica: CanvasReplica(session: "here", layout: rig.host.currentLayout(), version: 3))
        return (rig, rig.host.update(.start(HostStart(shared: copy))))
    }

    private func keys(_ rig: Rig, _ keys: Key...) -> [HostEffect] {
        keys.flatMap { rig.host.update(.input(.key($0))) }
    }

    private func sent(_ effects: [HostEffect]) -> [CanvasOperation] {
        effects.flatMap { effect -> [CanvasOperation] in
            guard case .shared(.send(Self.canvas, let edits)) = effect else { return [] }
            return edits.map(\.operation)
        }
    }

    private func change(_ version: Int, by author: String, _ operation: CanvasOperation, session: String = "there", sequence: Int = 1) -> HostMessage {
        .publish([SharedCanvasChanged(canvas: Self.canvas, change: CanvasChange(
            version: version, author: author, origin: EditOrigin(session: session, sequence: sequence), operation: operation))])
    }

    @Test func openingAsksTheServerForTheLatestAndTheStatusBarSaysWhose() throws {
        let (rig, effects) = try sharedRig(.viewer)
        guard case .shared(.catchUp(Self.canvas, session: "here"))? = effects.last else {
            Issue.record("expected a catch-up, got \(effects)")
            return
        }
        #expect(rig.host.compose().lines.last?.hasSuffix("default · read-only, shared by alice ") == true)
    }

    /// Issue 40: Ctrl-S under the canvas's own name saves nothing, so it says what is true
    /// instead of "Saved as default": for a viewer, read-only; for an editor, already saved.
    @Test func ctrlSUnderTheSharedCanvasesOwnNameSaysWhatIsTrue() throws {
        for role in [CanvasRole.viewer, .editor] {
            let (rig, _) = try sharedRig(role)
            let effects = keys(rig, .ctrl("s"), .enter)
            #expect(!effects.contains { if case .write(.save) = $0 { true } else { false } }, "\(effects)")
            let said = rig.host.notice?.text ?? ""
            #expect(said.hasSuffix("Ctrl-S under a new name saves a copy of your own"), "\(said)")
            #expect(said.hasPrefix(role == .viewer ? "Read-only: alice shared default with you as a viewer" : "default is shared: each change is on the server"),
                    "\(said)")
        }
    }

    @Test func aViewersArrangeKeysAreRefusedWithWhyAndNothingIsSent() throws {
        let (rig, _) = try sharedRig(.viewer)
        let before = rig.host.currentLayout()
        var effects = keys(rig, .ctrl("e"))
        #expect(rig.host.notice?.text == "Read-only: alice shared default with you as a viewer; ask them to make you an editor")
        // The same from the palette's commands.
        for command in [CommandID.addPane, .removePane, .paneSettings, .undo, .redo] {
            rig.host.state.notice = nil
            effects += rig.host.state.step { $0.run(command) }
            #expect(rig.host.notice?.text.hasPrefix("Read-only: ") == true, "\(command)")
        }
        #expect(rig.host.mode == .normal && rig.host.overlay == nil)
        #expect(sent(effects).isEmpty && !effects.contains { if case .write = $0 { true } else { false } })
        #expect(rig.host.currentLayout().panes.map(\.frame) == before.panes.map(\.frame))
    }

    @Test func anEditorsStepIsShownAtOnceAndSentAsOneOperationNotKeptAsALocalStep() throws {
        let (rig, _) = try sharedRig()
        _ = keys(rig, .ctrl("e"))
        let effects = keys(rig, .shift(.right))  // the calendar (focused) grows into the event log
        #expect(sent(effects) == [.resize(1, to: Size(width: 6, height: 12))], "\(effects)")
        #expect(effects.contains { if case .write(.keepShared(let copy)) = $0 { copy.replica.pending.count == 1 } else { false } })
        #expect(!effects.contains { if case .write(.step) = $0 { true } else { false } })
        #expect(rig.host.manager.pane(2)?.frame == Rect(x: 6, y: 0, width: 6, height: 12))
    }

    @Test func anotherMembersChangeMovesThePaneSaysWhoAndLeavesTheFocusAlone() throws {
        let (rig, _) = try sharedRig()
        let focused = rig.host.manager.focusedPaneID
        let effects = rig.host.update(change(4, by: "bob", .swap(1, 2)))
        #expect(rig.host.manager.pane(1)?.frame == Rect(x: 5, y: 0, width: 7, height: 12))
        #expect(rig.host.manager.focusedPaneID == focused)
        #expect(rig.host.notice?.text == "bob swapped two panes")
        #expect(effects.contains { if case .write(.keepShared(let copy)) = $0 { copy.replica.version == 4 } else { false } })
        // A change of another canvas, or one already had, changes nothing; a gap asks for a catch-up.
        #expect(rig.host.update(.publish([SharedCanvasChanged(canvas: 8, change: CanvasChange(
            version: 5, author: "x", origin: EditOrigin(session: "y", sequence: 1), operation: .remove(1)))])).isEmpty)
        #expect(rig.host.update(change(4, by: "bob", .remove(1))).isEmpty)
        let gap = rig.host.update(change(9, by: "bob", .remove(1)))
        guard case .shared(.catchUp(Self.canvas, _))? = gap.first else { Issue.record("expected a catch-up, got \(gap)"); return }
        #expect(rig.host.manager.pane(1) != nil)
    }

    @Test func undoTakesBackOnlyThisUsersOwnStep() throws {
        let (rig, _) = try sharedRig()
        _ = keys(rig, .ctrl("e"))
        let mine = sent(keys(rig, .shift(.right)))
        #expect(mine == [.resize(1, to: Size(width: 6, height: 12))])
        // The server orders it, then bob's resize of the event log.
        _ = rig.host.update(change(4, by: "alice", mine[0], session: "here", sequence: 1))
        _ = rig.host.update(change(5, by: "bob", .resize(2, to: Size(width: 6, height: 10))))
        let undone = keys(rig, .char("u"))
        #expect(sent(undone) == [.resize(1, to: Size(width: 5, height: 12))], "\(undone)")
        #expect(rig.host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 5, height: 12))
        #expect(rig.host.manager.pane(2)?.frame == Rect(x: 5, y: 0, width: 7, height: 10), "bob's step stays")
        // Issue 40, item 9: said as what this user's undo did, never as a member's change.
        #expect(rig.host.notice?.text == "Your undo resized 1 Calendar", "\(String(describing: rig.host.notice))")
        // Until the server has it, the status bar counts it.
        #expect(rig.host.shared?.statusBadge == "shared by alice · 1 unsent")
        #expect(sent(keys(rig, .ctrl("r"))) == [.resize(1, to: Size(width: 6, height: 12))])
        #expect(rig.host.notice?.text == "Your redo resized 1 Calendar")
    }

    @Test func aPaneAddedHereTakesTheIdTheServerGivesItAndKeepsTheFocus() throws {
        let (rig, _) = try sharedRig()
        // Bob's dashboard is of a version whose removals leave the room free: the add takes it.
        _ = rig.host.update(change(4, by: "bob", .remove(2, refill: false)))
        _ = rig.host.state.step { $0.addPane(.eventLog, name: "Event Log") }
        let added = try #require(rig.host.shared?.replica.pending.first)
        guard case .add(let pane) = added.operation else { Issue.record("expected an add, got \(added)"); return }
        #expect(rig.host.manager.focusedPaneID == pane.id)
        var ordered = pane
        ordered.id = 3
        _ = rig.host.update(change(5, by: "alice", .add(ordered), session: "here", sequence: added.origin.sequence))
        #expect(rig.host.manager.focusedPaneID == 3 && rig.host.manager.pane(pane.id) == nil)
        #expect(rig.host.shared?.replica.pending.isEmpty == true)
    }

    @Test func theCopyIsKeptAndACatchUpSendsWhatTheServerHasNotAnswered() async throws {
        let (rig, _) = try sharedRig()
        _ = keys(rig, .ctrl("e"))
        rig.host.perform(keys(rig, .shift(.right)))
        await rig.host.io.drain()
        let kept = try #require(try await rig.library.sharedCopy(named: "default"))
        #expect(kept.replica.pending.count == 1 && kept.canvas == Self.canvas)
        // The server had not answered it: a catch-up shows its layout and sends the edit again.
        let server = try #require(rig.host.shared?.replica.confirmed)
        let effects = rig.host.update(.shared(canvas: Self.canvas, .caughtUp(layout: server, version: 3, answered: 0, role: .editor)))
        #expect(sent(effects) == [.resize(1, to: Size(width: 6, height: 12))])
        // Renamed on the server meanwhile: the copy and the canvas take the new name.
        var renamed = server
        renamed.name = "ops"
        let caught = rig.host.update(.shared(canvas: Self.canvas, .caughtUp(layout: renamed, version: 3, answered: 1, role: .editor)))
        #expect(rig.host.manager.layout.name == "ops" && rig.host.notice?.text == "default is called ops now")
        #expect(caught.contains { if case .write(.keepShared(let copy)) = $0 { copy.name == "ops" } else { false } })
        // Once it answered, nothing is sent again.
        let answered = rig.host.update(.shared(canvas: Self.canvas, .caughtUp(layout: renamed, version: 3, answered: 1, role: .viewer)))
        #expect(sent(answered).isEmpty && rig.host.notice?.text == "You are a viewer of ops now")
    }
}

extension SharedCanvasHostTests {
    @Test func savedUnderAnotherNameItIsALayoutOfOneselfsOwn() throws {
        let (rig, _) = try sharedRig(.viewer)
        _ = rig.host.state.step { $0.save(as: "mine") }
        #expect(rig.host.shared == nil && rig.host.manager.layout.name == "mine")
        _ = keys(rig, .ctrl("e"))
        #expect(rig.host.mode == .arrange)
        #expect(!rig.host.compose().lines.last!.contains("shared"))
    }
}

extension SharedCanvasHostTests {
    @Test func thePickerListsTheServersLayoutsAndWhoHasEachOpenAndOpensOneNotCopiedHere() throws {
        let (rig, _) = try sharedRig(ports: HostPorts(sharedCanvasRequests: { _ in }))
        _ = rig.host.state.step { $0.run(.openLayout) }
        let copied = LayoutSummary(name: "default", paneCount: 2, updatedAt: nil, isPreset: false,
                                   sharing: LayoutSummary.Sharing(canvas: Self.canvas, owner: "alice", role: .editor))
        let listed = rig.host.update(.layoutsListed([copied, LayoutSummary(name: "planner", paneCount: 3, updatedAt: nil, isPreset: true)]))
        guard case .shared(.list)? = listed.first else { Issue.record("expected the server's list asked for, got \(listed)"); return }
        let ops = LayoutSummary(name: "ops", paneCount: nil, updatedAt: nil, isPreset: false,
                                sharing: LayoutSummary.Sharing(canvas: 9, owner: "carol", role: .viewer))
        _ = rig.host.update(.shared(canvas: Self.canvas, .present(["alice", "bob"])))
        _ = rig.host.update(.shared(canvas: nil, .listed([copied, ops])))
        let screen = rig.host.compose().lines
        #expect(screen.contains { $0.contains("default (current) — 2 panes, shared by alice, editor, open: alice, bob") })
        #expect(screen.contains { $0.contains("ops — not opened here, shared by carol, viewer") })
        // The live stream keeps who has it open current.
        _ = rig.host.update(.publish([SharedCanvasPresence(canvas: Self.canvas, present: ["alice"])]))
        #expect(rig.host.compose().lines.contains { $0.contains("shared by alice, editor, open: alice") && !$0.contains("bob") })

        // Opening one this machine has no copy of reads its first copy from the server.
        let opened = keys(rig, .down, .enter)
        #expect(opened.contains { if case .shared(.fetch(canvas: 9)) = $0 { true } else { false } }, "\(opened)")
        var layout = rig.host.currentLayout()
        layout.name = "ops"
        let copy = SharedCanvasCopy(canvas: 9, owner: "carol", role: .viewer, replica: CanvasReplica(session: "s2", layout: layout, version: 5))
        _ = rig.host.update(.shared(canvas: 9, .firstCopy(copy, stored: false)))
        #expect(rig.host.shared?.canvas == 9 && rig.host.notice?.text == "Opened ops, read-only, shared by carol")
    }

    @Test func anotherLayoutOrQuittingSaysThisSessionClosedTheCanvas() throws {
        let (rig, _) = try sharedRig()
        let loaded = rig.host.update(.layoutLoaded(LoadedLayout(try CanvasManager(layout: rig.host.currentLayout()), preset: nil)))
        #expect(loaded.contains { if case .shared(.close(Self.canvas, session: "here")) = $0 { true } else { false } }, "\(loaded)")
        #expect(rig.host.shared == nil)
        let (again, _) = try sharedRig()
        #expect(again.host.update(.shutdown).contains { if case .shared(.close(Self.canvas, session: "here")) = $0 { true } else { false } })
    }
}

extension SharedCanvasHostTests {
    @Test func connectedToATeamServerASaveUnderANewNameIsStoredThereOrKeptHereWhenItCannotBe() throws {
        let rig = try Rig(ports: HostPorts(savesOnServer: true))
        _ = rig.host.update(.input(.resize(Fixed.size)))
        let asked = rig.host.state.step { $0.save(as: "mine") }
        guard case .shared(.store(let layout))? = asked.first, asked.count == 1 else { Issue.record("expected a store, got \(asked)"); return }
        #expect(layout.name == "mine" && rig.host.manager.layout.name == "default", "nothing changes until the server answers")

        let copy = SharedCanvasCopy(canvas: 12, owner: "me", role: .owner, replica: CanvasReplica(session: "s", layout: layout, version: 0))
        let stored = rig.host.update(.shared(canvas: 12, .firstCopy(copy, stored: true)))
        #expect(stored.contains { if case .write(.keepShared(copy)) = $0 { true } else { false } })
        #expect(rig.host.shared?.canvas == 12 && rig.host.manager.layout.name == "mine")

        // Offline: kept on this machine, and said so.
        _ = rig.host.state.step { $0.save(as: "other") }
        let kept = rig.host.update(.shared(canvas: nil, .notStored(layout, reason: "server unreachable")))
        #expect(kept.contains { if case .write(.save(let saved, _, announce: false)) = $0 { saved.name == "mine" } else { false } })
        #expect(rig.host.notice?.text == "Could not save mine on the server (server unreachable); saved it on this machine instead")
        #expect(rig.host.shared == nil && kept.contains { if case .shared(.close(12, _)) = $0 { true } else { false } })
    }
}

extension SharedCanvasHostTests {
    @Test func undoSurvivesARestartWithTheKeptCopy() throws {
        let (rig, _) = try sharedRig()
        _ = keys(rig, .ctrl("e"))
        let step = keys(rig, .shift(.right))
        var kept: SharedCanvasCopy?
        for case .write(.keepShared(let copy)) in step { kept = copy }
        let copy = try #require(kept)
        #expect(copy.undo == [[.resize(1, to: Size(width: 5, height: 12))]])
        // Kept as JSON, as the layout store does, and opened by the next start.
        let reopened = try JSONDecoder().decode(SharedCanvasCopy.self, from: JSONEncoder().encode(copy))
        let next = try Rig(start: nil)
        _ = next.host.update(.input(.resize(Fixed.size)))
        _ = next.host.update(.start(HostStart(shared: reopened)))
        _ = keys(next, .ctrl("e"))
        #expect(sent(keys(next, .char("u"))) == [.resize(1, to: Size(width: 5, height: 12))])
        // A copy kept before copies had an undo opens with none.
        var old = try JSONSerialization.jsonObject(with: JSONEncoder().encode(copy)) as? [String: Any] ?? [:]
        old["undo"] = nil
        old["redo"] = nil
        #expect(try JSONDecoder().decode(SharedCanvasCopy.self, from: JSONSerialization.data(withJSONObject: old)).undo.isEmpty)
    }
}
