import CanvasCore
import CanvasUI
import LayoutStore
import Testing
@testable import termcanvas

/// Issue 55, item 4: a preset stays a preset. Its first change is kept under a name of the
/// user's own (`default (changed)`), Ctrl-O says which is which, and "Restore the preset" opens
/// the file again; nothing the user arranged is lost on the way.
@MainActor
@Suite("Presets stay presets")
struct PresetTests {
    /// A dashboard started on the `default` preset as a first start is, told it is one.
    private func presetRig(_ directory: TemporaryDirectory? = nil) throws -> Rig {
        let rig = try Rig(directory: directory, start: nil)
        rig.host.perform(rig.host.update(.start(HostStart(preset: try rig.library.presetOrigin(of: "default"),
                                                           presetNames: Set(rig.library.presets.layoutNames())))))
        return rig
    }

    @Test func theFirstStepKeepsTheChangesApartAndThePresetAsItsFileHasIt() async throws {
        let rig = try presetRig()
        #expect(rig.statusBar.hasSuffix(" default "))
        rig.press(.ctrl("e"), .shift(.left))
        #expect(rig.host.manager.layout.name == "default (changed)")
        #expect(rig.statusBar.contains("Your changes are kept as default (changed); default stays the preset"))
        await rig.settle()
        #expect(try rig.storedNames() == ["default (changed)"])
        #expect(try rig.steps(of: "default (changed)") == ["created", "resize"])
        // Its history begins with the preset as its file has it: undo goes back to it.
        rig.press(.char("u"))
        #expect(rig.host.manager.layout.hasSameArrangement(as: try rig.library.layoutNow("default")))
        #expect(rig.host.manager.layout.name == "default (changed)")

        #expect(try await rig.library.save(rig.host.currentLayout()) == "default (changed)")
        #expect(try rig.store.preference(DashboardLibrary.layoutPreference) == "default (changed)")
        #expect(try rig.store.layout(named: "default") == nil)
    }

    /// Used, not arranged, a preset keeps its panes' state (a day chosen, a micro-app's count)
    /// as any layout does, and stays the preset.
    @Test func aPresetOnlyUsedKeepsItsPanesStateAndStaysThePreset() async throws {
        let rig = try presetRig()
        rig.press(.right)  // the calendar's chosen day: its state, not its arrangement
        let used = rig.host.currentLayout()
        #expect(try await rig.library.save(used) == "default")
        #expect(try rig.store.layout(named: "default")?.panes.map(\.state) == used.panes.map(\.state))
        #expect(try rig.store.preference(DashboardLibrary.layoutPreference) == "default")
        #expect(try rig.library.presetRow("default") == .ownState)
        let listed = try await rig.library.summaries().filter { $0.name == "default" }
        #expect(listed.count == 1 && listed.first?.isPreset == true && listed.first?.changedFrom == nil)
        #expect(try rig.library.presetOrigin(of: "default")?.isUnchanged == true)
    }

    /// Widgets fill in settings the file leaves out (the calendar's `view: month`); only a
    /// setting the user changed is a change.
    @Test func aSettingChangedIsAChangeToo() async throws {
        let rig = try presetRig()
        rig.press(.char("v"))
        #expect(try await rig.library.save(rig.host.currentLayout()) == "default (changed)")
        #expect(try rig.storedNames() == ["default (changed)"])
        #expect(rig.host.manager.layout.name == "default (changed)")
    }

    @Test func ctrlOSaysWhichIsThePresetAndCtrlPRestoresIt() async throws {
        let rig = try presetRig()
        rig.press(.ctrl("e"), .shift(.left), .enter)
        await rig.settle()
        rig.press(.ctrl("o"))
        try await rig.deliver()
        #expect(rig.text.contains("default — preset"))
        #expect(rig.text.contains("default (changed) (current) — 2 panes, changed from preset default"))
        #expect(rig.text.contains("^P the preset"))
        rig.press(.ctrl("p"))
        try await rig.deliver()
        #expect(rig.host.manager.layout.name == "default")
        #expect(rig.host.manager.layout.hasSameArrangement(as: try rig.library.layoutNow("default")))
        #expect(rig.statusBar.contains("Loaded default, a preset: your changes will be kept as default (changed 2)"))
        await rig.settle()
        #expect(try rig.storedNames() == ["default (changed)"])
    }

    /// Layouts stored under a preset's name before presets stayed presets: "Restore the preset"
    /// moves one aside under the name changes are kept under, then opens the file.
    @Test func aLayoutStoredUnderThePresetsNameIsMovedAsideNotLost() async throws {
        let directory = try TemporaryDirectory()
        do {
            let old = try Rig(directory: directory)
            old.press(.ctrl("e"), .shift(.left), .enter)  // no preset told: stored as `default`, as before
            await old.settle()
            #expect(try old.storedNames() == ["default"])
        }
        let rig = try Rig(directory: directory, start: nil)
        rig.host.perform(rig.host.update(.start(HostStart(preset: try rig.library.presetOrigin(of: "default"),
                                                           presetNames: Set(rig.library.presets.layoutNames())))))
        let stored = try rig.library.layoutNow("default")
        #expect(!stored.hasSameArrangement(as: try #require(try rig.library.presets.layout(named: "default"))))
        rig.press(.ctrl("e"), .char("p"))
        #expect(try await rig.deliver(1).map(\.kind) == ["layoutLoaded"])
        #expect(rig.host.manager.layout.hasSameArrangement(as: try #require(try rig.library.presets.layout(named: "default"))))
        await rig.settle()
        #expect(try rig.storedNames() == ["default (changed)"])
        #expect(try rig.store.layout(named: "default (changed)")?.hasSameArrangement(as: stored) == true)
    }

    @Test func savingUnderAPresetsNameIsRefusedWithTheWayOut() async throws {
        let rig = try presetRig()
        rig.press(.ctrl("s"))
        rig.type("planner")
        rig.press(.enter)
        #expect(rig.statusBar.contains("planner is a preset and stays as its file has it: save under a name of your own"))
        #expect(rig.host.manager.layout.name == "default")
        await rig.settle()
        #expect(try rig.storedNames().isEmpty)
        var renamed = rig.host.currentLayout()
        renamed.name = "planner"
        await #expect(throws: PresetNameTaken.self) { try await rig.library.save(renamed, continuingHistoryOf: "default") }
    }

    @Test func changedNamesAreReadBack() {
        #expect(PresetOrigin.preset(changedAs: "default (changed)") == "default")
        #expect(PresetOrigin.preset(changedAs: "my planner (changed 12)") == "my planner")
        for name in ["default", "default (changed 1)", "default (changed x)", "(changed)x", "default (changed 99999999999999999999)"] {
            #expect(PresetOrigin.preset(changedAs: name) == nil, "\(name)")
        }
        #expect(PresetOrigin.changedName(of: "default") { ["default (changed)", "default (changed 2)"].contains($0) } == "default (changed 3)")
    }
}
