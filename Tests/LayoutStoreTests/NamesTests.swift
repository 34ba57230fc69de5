import CanvasCore
import Foundation
@testable import LayoutStore
import Testing

@Suite("Deleting and renaming layouts")
struct NamesTests {
    @Test func deleteRemovesTheLayoutItsPanesAndItsHistory() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        var other = Sample.planner
        other.name = "other"
        try store.save(other)

        try store.delete(named: Sample.name)

        #expect(try store.load(named: Sample.name) == nil)
        #expect(try store.summaries().map(\.name) == ["other"])
        #expect(throws: LayoutStoreError.notFound(name: Sample.name)) { try store.history(named: Sample.name) }
        // Only the other layout's rows are left.
        #expect(try count("SELECT COUNT(*) FROM pane", in: scratch.database) == 3)
        #expect(try count("SELECT COUNT(*) FROM history", in: scratch.database) == 1)
        #expect(try store.load(named: "other")?.layout == other)
    }

    @Test func deletingAMissingLayoutIsNotFound() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        #expect(throws: LayoutStoreError.notFound(name: "nope")) { try store.delete(named: "nope") }
        #expect(try store.summaries().count == 1)
    }

    @Test func aDeletedNameStartsAfreshWhenSavedAgain() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        try store.delete(named: Sample.name)
        try store.save(Sample.swapped)
        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == Sample.swapped)
        #expect(loaded.history.undoSnapshots.isEmpty)
        #expect(try store.history(named: Sample.name).map(\.step) == ["created"])
    }

    @Test func renameKeepsPanesAndHistory() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        try store.rename(Sample.name, to: "Renamed ✓")

        #expect(try store.load(named: Sample.name) == nil)
        let loaded = try #require(try store.load(named: "Renamed ✓"))
        var expected = Sample.narrowed
        expected.name = "Renamed ✓"
        #expect(loaded.layout == expected)
        #expect(loaded.history.undoSnapshots.map(\.panes) == [Sample.planner.panes, Sample.swapped.panes])
        #expect(try store.history(named: "Renamed ✓").map(\.step) == ["created", "swap", "narrow"])
        #expect(try store.summaries().map(\.name) == ["Renamed ✓"])
    }

    @Test func renameToItselfIsAllowed() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        try store.rename(Sample.name, to: Sample.name)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
    }

    @Test func renameToATakenNameIsRefusedAndChangesNothing() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        try store.save(LayoutData(name: "taken"))
        #expect(throws: LayoutStoreError.nameTaken(name: "taken")) { try store.rename(Sample.name, to: "taken") }
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try store.load(named: "taken")?.layout == LayoutData(name: "taken"))
    }

    @Test func renameOfAMissingLayoutIsNotFound() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        #expect(throws: LayoutStoreError.notFound(name: "ghost")) { try store.rename("ghost", to: "real") }
        #expect(try store.summaries().isEmpty)
    }

    static let invalidNames: [(String, String)] = [
        ("", "use 1 to 64 characters"),
        ("  x", "no spaces at the start or end"),
        ("x ", "no spaces at the start or end"),
        ("a\u{7}b", "no control characters"),
        ("tab\there", "no control characters"),
        (String(repeating: "n", count: 65), "use 1 to 64 characters"),
    ]

    @Test(arguments: invalidNames)
    func invalidNamesAreRefusedByRenameAndSave(name: String, reason: String) throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        #expect(throws: LayoutStoreError.invalidName(reason)) { try store.rename(Sample.name, to: name) }
        #expect(throws: LayoutStoreError.invalidName(reason)) { try store.save(LayoutData(name: name)) }
        #expect(throws: LayoutStoreError.invalidName(reason)) { try store.recordStep("s", layout: LayoutData(name: name)) }
        #expect(try store.summaries().map(\.name) == [Sample.name])
    }

    @Test func namesUpTo64CharactersAreAccepted() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        let longest = String(repeating: "日", count: 64)
        try store.save(LayoutData(name: longest))
        try store.rename(longest, to: "a b")
        #expect(try store.summaries().map(\.name) == ["a b"])
    }
}

@Suite("Preferences")
struct PreferenceTests {
    @Test func preferencesAreStoredOverwrittenAndKeptApart() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            #expect(try store.preference("theme") == nil)
            try store.setPreference("theme", to: "dark")
            try store.setPreference("lastLayout", to: Sample.name)
            #expect(try store.preference("theme") == "dark")
            try store.setPreference("theme", to: "light ☀︎")
            #expect(try store.preference("theme") == "light ☀︎")
            try store.setPreference("empty", to: "")
            #expect(try store.preference("empty") == "")
        }
        let reopened = try openStore(scratch.database)
        #expect(try reopened.preference("theme") == "light ☀︎")
        #expect(try reopened.preference("lastLayout") == Sample.name)
        #expect(try reopened.preference("Theme") == nil)
        #expect(try count("SELECT COUNT(*) FROM preference", in: scratch.database) == 3)
    }
}
