import CanvasCore
import Foundation
import GRDB
import LayoutStore
import Testing

@Suite("Shared canvases' copies in the layout database")
struct SharedCopyTests {
    static func copy(_ name: String, canvas: Int64) throws -> SharedCanvasCopy {
        var replica = CanvasReplica(session: "s", layout: LayoutData(name: name, panes: [
            Pane(id: 1, app: .todo, frame: Rect(x: 0, y: 0, width: 6, height: 12)),
        ]), version: 2)
        _ = try replica.edit(.resize(1, to: Size(width: 5, height: 12)))
        return SharedCanvasCopy(canvas: canvas, owner: "alice", role: .editor, replica: replica)
    }

    @Test func aCopyIsKeptPerServerWithItsUnansweredEditsAcrossARestart() throws {
        // A folder of its own: the system temporary folder keeps its mode whatever the store does.
        let scratch = try Scratch()
        let url = scratch.database
        let oncall = try Self.copy("oncall", canvas: 3)
        do {
            let store = try LayoutStore.open(at: url).store
            try store.keep(oncall, server: "team-alice")
            try store.keep(try Self.copy("ops", canvas: 4), server: "team-alice")
            try store.keep(try Self.copy("oncall", canvas: 9), server: "local")
        }
        let reopened = try LayoutStore.open(at: url).store
        #expect(try reopened.sharedCopy(named: "oncall", server: "team-alice") == oncall)
        #expect(try reopened.sharedCopy(named: "oncall", server: "local")?.canvas == 9)
        #expect(try reopened.sharedCopy(named: "oncall", server: "elsewhere") == nil)
        #expect(try reopened.sharedCopyNames(server: "team-alice") == ["oncall", "ops"])
        try reopened.forgetSharedCopy(named: "oncall", server: "team-alice")
        #expect(try reopened.sharedCopyNames(server: "team-alice") == ["ops"])
        // Not a layout of this machine's: the layouts' list does not hold it.
        #expect(try reopened.summaries().isEmpty)
        // Renamed on the server, a canvas is kept under its new name only.
        var renamed = try Self.copy("ops", canvas: 4)
        renamed.replica.rename(to: "operations")
        try reopened.keep(renamed, server: "team-alice")
        #expect(try reopened.sharedCopyNames(server: "team-alice") == ["operations"])
    }

    @Test func anUnreadableCopyIsAnErrorThatNamesItNotATrap() throws {
        // A folder of its own: the system temporary folder keeps its mode whatever the store does.
        let scratch = try Scratch()
        let url = scratch.database
        try LayoutStore.open(at: url).store.keep(try Self.copy("oncall", canvas: 3), server: "local")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: #"UPDATE sharedCopy SET copy = '{"canvas": "x"}'"#) }
        try queue.close()
        #expect(throws: LayoutStoreError.self) { try LayoutStore.open(at: url).store.sharedCopy(named: "oncall", server: "local") }
    }
}
