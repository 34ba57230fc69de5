import CanvasCore
import CanvasUI
import LayoutStore
import Testing
@testable import termcanvas

/// Ctrl-S: a prompt with the current name; Enter saves under the typed one.
@MainActor
@Suite("Ctrl-S saves the layout under a name")
struct SaveAsTests {
    @Test func thePromptShowsTheCurrentName() throws {
        let rig = try Rig()
        #expect(rig.statusBar.hasSuffix(" default "))
        rig.press(.ctrl("s"))
        #expect(rig.text.contains("Save layout"))
        #expect(rig.text.contains("Name: default▏"))
        #expect(rig.text.contains("Enter saves, Esc cancels."))
        #expect(rig.statusBar.hasPrefix(" SAVE  Enter save Esc cancel"))
    }

    /// Issue 40: the offered name is selected, so typing a name saves under that name, not the
    /// offer with the name after it (`defaultmine`); a cursor key keeps the offer to edit.
    @Test func typingReplacesTheOfferedNameAndACursorKeyKeepsIt() async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"))
        #expect((rig.host.overlay as? SavePromptOverlay)?.field.isAllSelected == true)
        #expect(rig.text.contains("Type a name, or ← → to edit this one."))
        rig.type("mine")
        #expect(rig.text.contains("Name: mine▏"))
        try await rig.press(.enter, expecting: 1)
        #expect(rig.statusBar.contains("  Saved as mine "))

        rig.press(.ctrl("s"), .left)
        rig.type("my")
        #expect(rig.text.contains("Name: my▏mine"))
        try await rig.press(.enter, expecting: 1)
        #expect(rig.statusBar.contains("  Saved as mymine "))
    }

    @Test func aNewNameSavesUnderItWithTheHistoryOfTheLayoutItWasArrangedIn() async throws {
        let rig = try Rig()
        // Two arrangement steps: swap the calendar to the right, then narrow it.
        rig.press(.ctrl("e"), .right, .shift(.left), .enter)
        #expect(rig.frames == [1: Rect(x: 7, y: 0, width: 4, height: 12), 2: Rect(x: 0, y: 0, width: 7, height: 12)])

        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("work")
        #expect(rig.text.contains("Name: work▏"))
        let messages = try await rig.press(.enter, expecting: 1)
        #expect(messages.map(\.kind) == ["saved"])
        #expect(!rig.text.contains("Save layout"))
        #expect(rig.statusBar.contains("  Saved as work "))

        await rig.settle()
        let stored = try #require(try rig.store.layout(named: "work"))
        #expect(stored == rig.host.currentLayout())
        #expect(try rig.steps(of: "work") == ["created", "move", "resize"])
        #expect(try rig.currentStep(of: "work") == 2)
        #expect(try rig.store.preference(DashboardLibrary.layoutPreference) == "work")

        // The notice lasts until the next key; then the status bar names the layout.
        rig.press(.tab)
        #expect(rig.statusBar.hasSuffix(" work "))
        #expect(rig.host.manager.layout.name == "work")

        // Undo goes on through the steps made before the save, and is recorded under the new name.
        rig.press(.ctrl("e"), .char("u"))
        #expect(rig.frames[1] == Rect(x: 7, y: 0, width: 5, height: 12))
        await rig.settle()
        #expect(try rig.currentStep(of: "work") == 1)
        #expect(try rig.currentStep(of: "default") == 2, "the layout it came from is left as it was")
    }

    @Test func savedAsIsShownOnlyOnceTheLayoutIsStored() async throws {
        let rig = try Rig()
        rig.press(.ctrl("e"), .right, .shift(.left), .enter)  // steps still being written
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("work")
        try await rig.press(.enter, expecting: 1)
        #expect(rig.statusBar.contains("  Saved as work "))
        // Without waiting for the writes: the message says the layout is saved, so it is.
        #expect(try rig.store.layout(named: "work") == rig.host.currentLayout())
        #expect(try rig.steps(of: "work") == ["created", "move", "resize"])
    }

    @Test func savingUnderTheSameNameSavesTheLayout() async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"))
        rig.type("work")
        try await rig.press(.enter, expecting: 1)
        rig.press(.ctrl("e"), .right, .enter)
        rig.press(.ctrl("s"))
        try await rig.press(.enter, expecting: 1)
        #expect(rig.statusBar.contains("  Saved as work "))
        await rig.settle()
        #expect(try rig.store.layout(named: "work") == rig.host.currentLayout())
        #expect(try rig.steps(of: "work") == ["created", "move"])
        #expect(try rig.store.preference(DashboardLibrary.layoutPreference) == "work")
    }

    @Test func surroundingSpacesAreNotPartOfTheName() async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("  my board  ")
        try await rig.press(.enter, expecting: 1)
        #expect(rig.statusBar.contains("  Saved as my board "))
        await rig.settle()
        #expect(try rig.storedNames() == ["my board"])
    }

    @Test func escCancelsAndSavesNothing() async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type("work")
        rig.press(.escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(!rig.text.contains("Save layout"))
        #expect(rig.statusBar.hasSuffix(" default "))
        #expect(rig.host.manager.layout.name == "default")
        #expect(try await rig.inbox.isQuiet())
        await rig.settle()
        #expect(try rig.storedNames().isEmpty)
        #expect(try rig.store.preference(DashboardLibrary.layoutPreference) == nil)
    }

    @Test(arguments: ["", "   "])
    func anEmptyNameDoesNothing(_ name: String) async throws {
        let rig = try Rig()
        rig.press(.ctrl("s"), .ctrl("u"))
        rig.type(name)
        rig.press(.enter)
        // The prompt stays open for a name.
        #expect(rig.text.contains("Save layout"))
        #expect(rig.host.manager.layout.name == "default")
        #expect(try await rig.inbox.isQuiet())
        await rig.settle()
        #expect(try rig.storedNames().isEmpty)
        rig.press(.escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
    }
}
