import Foundation
import LayoutStore
import Testing

@Suite("Micro-app grants in the layout database")
struct GrantTests {
    @Test func grantsAreKeptByDigestAndRevoked() throws {
        // A folder of its own: the system temporary folder keeps its mode whatever the store does.
        let scratch = try Scratch()
        let url = scratch.database
        do {
            let store = try LayoutStore.open(at: url).store
            #expect(try store.grant(of: "sysmon") == nil)
            try store.grant(app: "sysmon", digest: "aa", at: Date(timeIntervalSince1970: 100))
            try store.grant(app: "sysmon", digest: "bb", at: Date(timeIntervalSince1970: 200))
            try store.grant(app: "pomodoro", digest: "cc")
        }
        let reopened = try LayoutStore.open(at: url).store
        #expect(try reopened.grant(of: "sysmon")?.digest == "bb")
        #expect(try reopened.grants().map(\.app) == ["pomodoro", "sysmon"])
        #expect(try reopened.revokeGrant(of: "sysmon"))
        #expect(try !reopened.revokeGrant(of: "sysmon"))
        #expect(try reopened.grant(of: "sysmon") == nil)
    }
}
