import CanvasCore
@testable import CanvasUI
import LayoutStore
import Testing
@testable import termcanvas

/// The host's `update`: a message in, its changes made and the IO it asks for returned as values,
/// none of it done. A rig on a real store, so performing the effects shows they do what they say.
@MainActor
@Suite("The host's update: messages in, effects out")
struct HostUpdateTests {
    /// A generator `update` may ask for but that these tests never run (they read the effects).
    struct UnusedGenerator: AppGenerating {
        func generate(_ description: String, progress: @escaping @Sendable (AppGenerationProgress) -> Void) async throws -> AppReview {
            throw CancellationError()
        }

        func problem() async -> String? { nil }
    }

    /// A rig past its first update, which hands out what mounting the widgets asked for.
    func startedRig(ports: HostPorts = HostPorts()) throws -> Rig {
        let rig = try Rig(ports: ports)
        _ = rig.host.update(.input(.resize(Fixed.size)))
        return rig
    }

    func update(_ rig: Rig, _ keys: Key...) -> [HostEffect] {
        keys.flatMap { rig.host.update(.input(.key($0))) }
    }

    @Test func anArrangementStepIsAWriteOfTheLayoutAfterAndBefore() async throws {
        let rig = try startedRig()
        let before = rig.host.currentLayout()
        #expect(update(rig, .ctrl("e")).isEmpty)
        let effects = update(rig, .right)
        guard case .write(.step("move", let after, before))? = effects.first, effects.count == 1 else {
            Issue.record("expected one recorded step, got \(effects)")
            return
        }
        #expect(after == rig.host.currentLayout() && after != before)
        await rig.settle()
        #expect(try rig.storedNames().isEmpty, "nothing is written by update")
        rig.host.perform(effects)
        await rig.settle()
        #expect(try rig.steps(of: "default") == ["created", "move"])
    }

    @Test func savingAsANameIsOneWriteThatTakesTheHistoryAlongAndSaysSoOnceDone() async throws {
        let rig = try startedRig()
        var effects = update(rig, .ctrl("s"))
        #expect(effects.isEmpty && rig.host.overlay is SavePromptOverlay)
        effects = update(rig, .ctrl("u")) + "mine".flatMap { update(rig, .char($0)) } + update(rig, .enter)
        guard case .write(.save(let layout, "default", announce: true))? = effects.first, effects.count == 1 else {
            Issue.record("expected one save, got \(effects)")
            return
        }
        #expect(layout.name == "mine" && rig.host.overlay == nil)
        rig.host.perform(effects)
        let messages = try await rig.deliver()
        #expect(messages.map(\.kind) == ["saved"] && rig.statusBar.contains("Saved as mine"))
        #expect(try rig.storedNames() == ["mine"])
    }

    @Test func pickersAskTheLibraryAndLoadingSavesFirst() throws {
        let rig = try startedRig()
        let opened = update(rig, .ctrl("o"))
        #expect(rig.host.overlay is LayoutPicker)
        guard case .read(.summaries)? = opened.first, opened.count == 1 else {
            Issue.record("expected a read of the layouts, got \(opened)")
            return
        }
        let effects = rig.host.update(.layoutsListed([LayoutSummary(name: "planner", paneCount: 3, updatedAt: nil, isPreset: true)]))
            + update(rig, .enter)
        guard effects.count == 2, case .write(.save(let current, nil, announce: false)) = effects[0],
              case .read(.layout("planner")) = effects[1] else {
            Issue.record("expected the current layout saved, then planner read, got \(effects)")
            return
        }
        #expect(current.name == "default")
    }

    @Test func aFailedSaveOnQuitAsksInTheQuitBoxAndEscStays() throws {
        let rig = try startedRig()
        let effects = update(rig, .char("q"))
        guard case .write(.saveOnQuit(let layout))? = effects.first, effects.count == 1 else {
            Issue.record("expected the save quitting waits for, got \(effects)")
            return
        }
        #expect(layout == rig.host.currentLayout() && rig.host.quitSave == .saving && !rig.host.shouldQuit)
        #expect(rig.host.update(.quitSaved(failure: "the disk is full")).isEmpty)
        #expect((rig.host.overlay as? QuitOverlay)?.failure == "the disk is full")
        #expect(update(rig, .escape).isEmpty)
        #expect(rig.host.overlay == nil && rig.host.quitSave == .notTried && !rig.host.shouldQuit)
    }

    @Test func theQuitBoxGoesOverANewAppBoxWhichIsStillThereAfterEscAndHearsItsRun() throws {
        let rig = try startedRig(ports: HostPorts(appGenerator: UnusedGenerator()))
        let opened = update(rig, Key(.function(2)))
        guard opened.count == 2, case .generator(.stop) = opened[0], case .generator(.check(let run)) = opened[1] else {
            Issue.record("expected the generator stopped and checked, got \(opened)")
            return
        }
        let written = "Lap counter".flatMap { update(rig, .char($0)) } + update(rig, .enter)
        guard case .generator(.write("Lap counter", run))? = written.first else {
            Issue.record("expected the app written for the box's run, got \(written)")
            return
        }
        _ = update(rig, .ctrl("q"))
        #expect(rig.host.overlay is QuitOverlay)
        _ = rig.host.update(.quitSaved(failure: "the disk is full"))
        // News of the box's run reaches it under the quit box; another run's does not.
        _ = rig.host.update(.appGeneration(run: run + 1, .failed("not this box's")))
        _ = rig.host.update(.appGeneration(run: run, .failed("the model is down")))
        _ = update(rig, .escape)
        guard let box = rig.host.overlay as? NewAppOverlay, case .failed(let message, _) = box.stage else {
            Issue.record("expected the new-app box back, failed, got \(String(describing: rig.host.overlay))")
            return
        }
        #expect(message == "No app was written: the model is down")
    }

    @Test func aWidgetsRequestIsAnEffectForTheSyncEngine() throws {
        let rig = try startedRig()
        let effects = update(rig, Key(.pageDown))  // the calendar, focused, shows the next month
        let requests = effects.compactMap { effect -> String? in
            if case .widgetRequest(let request) = effect { "\(request)" } else { nil }
        }
        #expect(requests.count == 1 && requests[0].contains("2026-12-01"), "\(effects)")
    }

    @Test func everyCanvasCommandIsFoundInTheCommandKindTable() {
        let canvasLevel = CanvasCommands.all.filter { [.canvas, .normal, .arrange].contains($0.context) }
        #expect(!canvasLevel.isEmpty)
        for command in canvasLevel {
            #expect(CanvasCommandKind.byCommand[command.id] != nil, "\(command.id) has no operation")
        }
    }
}
