import Foundation
@testable import ServerStore
import Testing

/// Issue 52: a provider user `dаve` (Cyrillic а) became a server user shown exactly as `dave`.
/// Names with one UTS #39 skeleton are one name: taken like any other.
struct LookAlikeNamesTests {
    @Test func namesThatLookAlikeHaveOneSkeleton() {
        #expect(NameSkeleton.of("d\u{0430}ve") == NameSkeleton.of("dave"))
        #expect(NameSkeleton.of("p\u{0430}yp\u{0430}l") == NameSkeleton.of("paypal"))
        #expect(NameSkeleton.of("rn") == NameSkeleton.of("m"))
        #expect(NameSkeleton.of("\u{0430}lice") == NameSkeleton.of("alice"))
        // Decomposed or composed, one name.
        #expect(NameSkeleton.of("jos\u{00E9}") == NameSkeleton.of("jose\u{0301}"))
        #expect(NameSkeleton.of("dave") != NameSkeleton.of("dove"))
        #expect(NameSkeleton.of("Dave") != NameSkeleton.of("dave"))
    }

    @Test("an operator's new user that looks like another is refused, naming both")
    func addingALookAlikeIsRefused() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withStore { store in
            _ = try await store.addUser(name: "dave", password: "pw", isAdmin: false)
            await #expect(throws: BFFStoreError.userLooksLike(name: "d\u{0430}ve", existing: "dave")) {
                try await store.addUser(name: "d\u{0430}ve", password: "pw", isAdmin: false)
            }
            _ = try await store.addUser(name: "dove", password: "pw", isAdmin: false)
        }
    }

    @Test("a provider's user whose name looks like a user's gets another name, and is told")
    func singleSignOnLookAlikeIsTaken() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withStore { store in
            _ = try await store.addUser(name: "dave", password: "pw", isAdmin: false)
            let made = try await store.singleSignOnUser(issuer: "https://id.example", subject: "s-1", names: ["d\u{0430}ve"], groups: [],
                                                        adminGroup: nil)
            #expect(made.created && made.user.name == "d\u{0430}ve-2" && made.nameTaken == "d\u{0430}ve")
        }
    }
}
