import CanvasCore
@testable import CanvasUI
import Testing

/// The host's small sub-models as values, with no host: quitting, the start's load times and
/// what the palette remembers.
@Suite("The host's sub-models")
struct HostSubModelTests {
    @Test func quittingSavesFirstAndASecondKeyDoesNotWaitForTheSave() {
        var quitting = Quitting()
        #expect(quitting.request(canSave: true) == [.saveFirst] && quitting.save == .saving && !quitting.shouldQuit)
        #expect(quitting.request(canSave: true).isEmpty && quitting.shouldQuit)
    }

    @Test func aFailedSaveIsSaidAndTheNextKeyQuitsWithoutItOrStayingSavesAgain() {
        var quitting = Quitting()
        _ = quitting.request(canSave: true)
        #expect(quitting.saved(failure: "disk full") == [.saveFailed("disk full")] && quitting.save == .failed("disk full"))
        #expect(!quitting.shouldQuit)
        var staying = quitting
        staying.stay()
        #expect(staying.request(canSave: true) == [.saveFirst])
        #expect(quitting.request(canSave: true).isEmpty && quitting.save == .declined && quitting.shouldQuit)
        // A late answer to the save changes nothing.
        #expect(quitting.saved(failure: nil).isEmpty && quitting.save == .declined)
    }

    @Test func withNowhereToSaveQuittingIsAtOnceAndASavedLayoutQuits() {
        var bare = Quitting()
        #expect(bare.request(canSave: false).isEmpty && bare.shouldQuit && bare.save == .notTried)
        var quitting = Quitting()
        _ = quitting.request(canSave: true)
        #expect(quitting.saved(failure: nil).isEmpty && quitting.save == .saved && quitting.shouldQuit)
    }

    @Test func theCanvasTimeIsGivenOnceFromTheProcessStartWithEveryPanesTime() {
        let start = ContinuousClock.now
        var timing = LoadTiming()
        timing.processStarted = start
        let todo = timing.paneShown(.todo, mounted: start + .milliseconds(5), at: start + .milliseconds(12))
        #expect(todo.microAppLoadTime == .milliseconds(7))
        _ = timing.paneShown(.chat, mounted: start + .milliseconds(5), at: start + .milliseconds(20))
        let times = timing.everyPaneShown(layout: "default", at: start + .milliseconds(21))
        #expect(times?.canvasLoadTime == .milliseconds(21) && times?.panes.map(\.app) == [.todo, .chat])
        #expect(timing.everyPaneShown(layout: "default", at: start + .milliseconds(40)) == nil)
        var unstarted = LoadTiming()
        #expect(unstarted.everyPaneShown(layout: "default", at: start) == nil)
    }

    @Test func thePaletteKeepsTheRecentCommandsMostRecentFirstOnceEachAndAtMostItsLimit() {
        var palette = PaletteMemory()
        palette.ran("canvas.undo")
        palette.ran("canvas.redo")
        palette.ran("canvas.undo")
        #expect(palette.recentCommands == ["canvas.undo", "canvas.redo"])
        let many: [CommandID] = (1...8).map { CommandID(rawValue: "test.command.\($0)") }
        for id in many { palette.ran(id) }
        #expect(palette.recentCommands == Array(many.reversed()) && palette.recentCommands.count == PaletteMemory.recentLimit)
    }
}
