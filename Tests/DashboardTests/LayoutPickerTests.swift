import CanvasCore
import CanvasUI
import LayoutStore
import Testing
@testable import termcanvas

/// Ctrl-O: stored layouts and presets, a filter, load, delete and rename.
@MainActor
@Suite("Ctrl-O opens the layout picker")
struct LayoutPickerTests {
    /// A layout stored under `name` before the picker opens: the planner preset's panes.
    func storeLayout(_ name: String, in rig: Rig) throws {
        var layout = try #require(try Repo.presets.layout(named: "planner"))
        layout.name = name
        try rig.store.save(layout)
    }

    /// Opens the picker and waits for its list.
    func openPicker(_ rig: Rig) async throws {
        rig.press(.ctrl("o"))
        #expect(rig.text.contains("Layouts"))
        let messages = try await rig.deliver()
        #expect(messages.map(\.kind) == ["layoutsListed"])
    }

    /// The names of the layouts the picker shows, in order.
    func listed(_ rig: Rig) -> [String] {
        guard let picker = rig.host.overlay as? LayoutPicker else { return [] }
        return picker.visible.map(\.name)
    }

    func highlighted(_ rig: Rig) -> String? {
        guard let picker = rig.host.overlay as? LayoutPicker else { return nil }
        return picker.highlighted?.name
    }

    @Test func listsStoredLayoutsAndPresetsAndMarksTheCurrentOne() async throws {
        let rig = try Rig()
        try storeLayout("work", in: rig)
        rig.press(.ctrl("o"))
        #expect(rig.text.contains("Loading…"))
        #expect(rig.statusBar.hasPrefix(" OPEN "))
        try await rig.deliver()
        #expect(!rig.text.contains("Loading…"))
        #expect(listed(rig) == ["default", "monitor", "planner", "work", "workbench"])
        #expect(rig.text.contains("default (current) — preset"))
        #expect(rig.text.contains("monitor — preset"))
        #expect(rig.text.contains("planner — preset"))
        #expect(rig.text.contains("work — 3 panes"))
        #expect(!rig.text.contains("monitor (current)"))
        // The current layout is highlighted to start with.
        #expect(highlighted(rig) == "default")
        #expect(rig.text.contains("Type to filter · Enter load · ^D delete · ^R rename · Esc close"))
    }

    @Test func aStoredLayoutOfAPresetsNameIsListedOnceAsStored() async throws {
        let rig = try Rig()
        try storeLayout("monitor", in: rig)
        try await openPicker(rig)
        #expect(listed(rig) == ["default", "monitor", "planner", "workbench"])
        #expect(rig.text.contains("monitor — 3 panes"))
    }

    @Test func typingFilters() async throws {
        let rig = try Rig()
        try await openPicker(rig)
        rig.type("pla")
        #expect(listed(rig) == ["planner"])
        #expect(rig.text.contains("Filter: pla▏"))
        #expect(rig.text.contains("planner — preset"))
        #expect(!rig.text.contains("monitor"))
        #expect(!rig.text.contains("default (current)"))
        #expect(highlighted(rig) == "planner")
        // Case does not matter; a filter matching nothing says so.
        rig.press(.ctrl("u"))
        rig.type("MON")
        #expect(listed(rig) == ["monitor"])
        rig.type("x")
        #expect(listed(rig).isEmpty)
        #expect(rig.text.contains("No layout matches."))
        rig.press(.backspace)
        #expect(listed(rig) == ["monitor"])
    }

    /// Issue 40: `d` and `r` are letters of names, so they filter; one Enter opens what is
    /// highlighted; Esc clears the filter before it closes the picker.
    @Test func everyLetterFiltersAndOneEnterOpens() async throws {
        let rig = try Rig()
        try storeLayout("mine", in: rig)
        try await openPicker(rig)
        rig.type("de")
        #expect(listed(rig) == ["default"])
        #expect(rig.text.contains("Filter: de▏"))
        #expect(!rig.text.contains("Delete"))
        rig.press(.escape)
        #expect(rig.host.overlay != nil && listed(rig).count == 5)
        #expect(rig.text.contains("Esc close"))
        rig.type("r")
        #expect(listed(rig) == ["monitor", "planner", "workbench"])
        #expect(!rig.text.contains("Rename"))
        rig.press(.ctrl("u"))
        rig.type("mi")
        #expect(listed(rig) == ["mine"])
        let messages = try await rig.press(.enter, expecting: 1)
        #expect(messages.map(\.kind) == ["layoutLoaded"])
        #expect(rig.host.overlay == nil && rig.host.manager.layout.name == "mine")
    }

    @Test func enterLoadsTheHighlightedLayoutAfterSavingTheOneLeftBehind() async throws {
        let rig = try Rig()
        rig.press(.ctrl("e"), .right, .enter)  // an arrangement step in `default`
        try await openPicker(rig)
        rig.type("pla")
        let messages = try await rig.press(.enter, expecting: 1)
        #expect(messages.map(\.kind) == ["layoutLoaded"])
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(rig.host.manager.layout.name == "planner")
        #expect(rig.statusBar.contains("  Loaded planner, a preset: your changes will be kept as planner (changed) "))
        #expect(paneTitles(rig.screen) == ["1 Calendar", "2 Todo", "3 Event Log"])
        #expect(rig.text.contains("November 2026"))
        #expect(!rig.text.contains("Layouts"))

        await rig.settle()
        let leftBehind = try #require(try rig.store.layout(named: "default"))
        #expect(leftBehind.pane(1)?.frame == Rect(x: 7, y: 0, width: 5, height: 12))
        rig.press(.tab)
        #expect(rig.statusBar.hasSuffix(" planner "))
    }

    @Test func downAndUpMoveTheHighlightWithinTheList() async throws {
        let rig = try Rig()
        try await openPicker(rig)
        rig.press(.up)
        #expect(highlighted(rig) == "default")
        rig.press(.down, .down, .down, .down, .down)
        #expect(highlighted(rig) == "workbench")
        rig.press(.up, .up)
        #expect(highlighted(rig) == "monitor")
        try await rig.press(.enter, expecting: 1)
        #expect(rig.host.manager.layout.name == "monitor")
        #expect(paneTitles(rig.screen) == ["1 Event Log", "2 Calendar", "3 Event Log"])
    }

    @Test func aStoredLayoutComesBackWithItsHistory() async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("work")
        try await rig.press(.enter, expecting: 1)
        rig.press(.ctrl("e"), .right, .enter)
        try await openPicker(rig)
        rig.type("pla")
        try await rig.press(.enter, expecting: 1)  // planner
        try await openPicker(rig)
        rig.type("work")
        try await rig.press(.enter, expecting: 1)  // back to work
        #expect(rig.host.manager.layout.name == "work")
        #expect(rig.frames[1] == Rect(x: 7, y: 0, width: 5, height: 12))
        // The step made before leaving it can be undone.
        rig.press(.ctrl("e"), .char("u"))
        #expect(rig.frames[1] == Rect(x: 0, y: 0, width: 5, height: 12))
    }

    @Test func ctrlDThenYDeletesAStoredLayout() async throws {
        let rig = try Rig()
        try storeLayout("work", in: rig)
        try await openPicker(rig)
        rig.press(.down, .down, .down)
        #expect(highlighted(rig) == "work")
        rig.press(.ctrl("d"))
        #expect(rig.text.contains("Delete work? y deletes, any other key keeps it."))
        rig.press(.char("y"))
        #expect(listed(rig) == ["default", "monitor", "planner", "workbench"])
        #expect(!listed(rig).contains("work"))
        #expect(highlighted(rig) == "workbench")
        #expect(rig.host.overlay != nil, "the picker stays open")
        await rig.settle()
        #expect(try rig.store.layout(named: "work") == nil)
        #expect(try rig.storedNames().isEmpty)
        #expect(try await rig.inbox.isQuiet())
    }

    @Test func ctrlDThenAnotherKeyKeepsTheLayout() async throws {
        let rig = try Rig()
        try storeLayout("work", in: rig)
        try await openPicker(rig)
        rig.press(.down, .down, .down, .ctrl("d"))
        #expect(rig.text.contains("Delete work?"))
        rig.press(.char("n"))
        #expect(!rig.text.contains("Delete work?"))
        #expect(listed(rig) == ["default", "monitor", "planner", "work", "workbench"])
        #expect(rig.text.contains("work — 3 panes"))
        await rig.settle()
        #expect(try rig.storedNames() == ["work"])
    }

    @Test func ctrlDOnAPresetSaysItCannotBeDeleted() async throws {
        let rig = try Rig()
        try await openPicker(rig)
        rig.press(.down)
        #expect(highlighted(rig) == "monitor")
        rig.press(.ctrl("d"))
        #expect(rig.statusBar.contains("monitor is a preset file; it cannot be deleted here"))
        #expect(!rig.text.contains("Delete monitor?"))
        #expect(listed(rig) == ["default", "monitor", "planner", "workbench"])
        #expect(rig.host.overlay != nil)
        #expect(try await rig.inbox.isQuiet())
    }

    @Test func theOpenLayoutCannotBeDeleted() async throws {
        let rig = try Rig()
        rig.press(.ctrl("e"), .shift(.right), .enter)  // a step stores the open layout, "default"
        await rig.settle()
        #expect(try rig.storedNames() == ["default"])
        try await openPicker(rig)
        #expect(highlighted(rig) == "default")
        rig.press(.ctrl("d"))
        #expect(rig.statusBar.contains("default is open; load another layout before deleting it"))
        #expect(!rig.text.contains("Delete default?"))
        await rig.settle()
        #expect(try rig.storedNames() == ["default"])
    }

    @Test func ctrlRTypingAndEnterRenamesAStoredLayout() async throws {
        let rig = try Rig()
        try storeLayout("work", in: rig)
        try await openPicker(rig)
        rig.press(.down, .down, .down, .ctrl("r"))
        #expect(rig.text.contains("Rename work to: work▏"))
        // The name is offered selected: typing replaces it.
        rig.type("job")
        #expect(rig.text.contains("Rename work to: job▏"))
        // The list is read again after the rename.
        let messages = try await rig.press(.enter, expecting: 1)
        #expect(messages.map(\.kind) == ["layoutsListed"])
        #expect(listed(rig) == ["default", "job", "monitor", "planner", "workbench"])
        #expect(rig.text.contains("job — 3 panes"))
        #expect(!listed(rig).contains("work"))
        await rig.settle()
        #expect(try rig.storedNames() == ["job"])
        #expect(rig.host.manager.layout.name == "default")
        rig.press(.escape)
        #expect(rig.statusBar.hasSuffix(" default "))
    }

    @Test func renamingTheCurrentLayoutRenamesItOnTheStatusBar() async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("work")
        try await rig.press(.enter, expecting: 1)
        try await openPicker(rig)
        #expect(highlighted(rig) == "work")
        rig.press(.ctrl("r"))
        rig.type("job")
        try await rig.press(.enter, expecting: 1)
        #expect(rig.text.contains("job (current) — 2 panes"))
        rig.press(.escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(rig.statusBar.hasSuffix(" job "))
        // Steps go on under the new name; the old one does not come back.
        rig.press(.ctrl("e"), .right, .enter)
        await rig.settle()
        #expect(try rig.storedNames() == ["job"])
        #expect(try rig.steps(of: "job") == ["created", "move"])
    }

    @Test func renamingToATakenNameIsRefusedAndChangesNothing() async throws {
        let rig = try Rig()
        try storeLayout("other", in: rig)
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("work")
        try await rig.press(.enter, expecting: 1)
        try await openPicker(rig)
        #expect(highlighted(rig) == "work")
        rig.press(.ctrl("r"))
        rig.type("other")
        rig.press(.enter)
        #expect(rig.statusBar.contains("A layout named 'other' already exists"))
        // The name can be corrected.
        #expect(rig.text.contains("Rename work to: other▏"))
        #expect(try await rig.inbox.isQuiet())
        await rig.settle()
        #expect(try rig.storedNames() == ["other", "work"])
        #expect(rig.host.manager.layout.name == "work", "the current layout keeps its name")
        rig.press(.escape, .escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(rig.statusBar.hasSuffix(" work "))
        // A step now must not overwrite the other layout.
        rig.press(.ctrl("e"), .right, .enter)
        await rig.settle()
        #expect(try rig.store.layout(named: "other")?.panes.count == 3)
        #expect(try rig.steps(of: "other") == ["created"])
    }

    @Test func ctrlROnAPresetSaysHowToRenameIt() async throws {
        let rig = try Rig()
        try await openPicker(rig)
        rig.press(.down, .ctrl("r"))
        #expect(!rig.text.contains("Rename"))
        #expect(rig.statusBar.contains("monitor is a preset file; save it under a name of yours (Ctrl-S) to rename that"))
        #expect(listed(rig) == ["default", "monitor", "planner", "workbench"])
    }

    @Test func escLeavesTheRenameThenClosesThePicker() async throws {
        let rig = try Rig()
        try storeLayout("work", in: rig)
        try await openPicker(rig)
        rig.press(.down, .down, .down, .ctrl("r"), .char("x"), .escape)
        #expect(!rig.text.contains("Rename"))
        #expect(rig.text.contains("Layouts"))
        rig.press(.escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(!rig.text.contains("Layouts"))
        #expect(rig.statusBar.hasPrefix(" NORMAL "))
        await rig.settle()
        #expect(try rig.storedNames() == ["work"])
    }
}
