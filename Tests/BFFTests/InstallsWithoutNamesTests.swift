import BFF
import Foundation
import ServerAPI
@testable import ServerStore
import Testing

/// "Counted, never named" holds of the database, not only of the API: what the server keeps to
/// count an install once per user is a mark no admin can read a user from, and the installs kept
/// with their users before schema v18 lose their names when a server of this build starts.
@Suite("BFF installs counted without names")
struct InstallsWithoutNamesTests {
    @Test("an admin reading the database learns how many installed an app, never who, nor that two apps were one user's")
    func theDatabaseNamesNobody() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            for id in ["sysmon", "notes"] {
                #expect(try await PackageTests.publish(client, token: root, try PackageTests.archive(id, version: "1.0.0"), id: id).status == .created)
            }
            for (name, id) in [("ann", "sysmon"), ("ann", "notes"), ("bob", "sysmon"), ("ann", "sysmon")] {
                let token = try await client.token(for: name)
                #expect(try await client.send(.post, APIPath.registryInstalls(id), token: token, rawBody: nil).status == .noContent)
            }
        }
        let (named, marks, users) = try await harness.withStore { store in
            (try await Self.rows("SELECT app_id, user_id FROM registry_installs", in: store),
             try await Self.rows("SELECT app_id, mark FROM registry_install_marks ORDER BY app_id", in: store),
             try await store.users())
        }
        #expect(named.isEmpty, "no install kept with its user: \(named)")
        #expect(marks.map(\.[0]) == ["notes", "sysmon", "sysmon"], "counted once a user")
        let kept = marks.map(\.[1])
        #expect(Set(kept).count == 3, "ann's two installs cannot be told to be one user's")
        #expect(kept.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        for user in users {
            #expect(!kept.contains { $0.contains(user.name) || $0 == String(user.id) })
        }
    }

    @Test("installs kept with their users by an earlier server are counted as before, without them, once this one starts")
    func earlierInstallsLoseTheirNames() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            #expect(try await PackageTests.publish(client, token: root, try PackageTests.archive(version: "1.0.0")).status == .created)
        }
        // As a server before v18 kept them: by user.
        try await harness.withStore { store in
            for name in ["ann", "bob"] {
                let user = try #require(try await store.user(named: name))
                try await store.runWrite(Plan.run("""
                    INSERT INTO registry_installs (app_id, user_id, installed_at) VALUES ('sysmon', \(user.id), '2026-11-01T00:00:00Z')
                    """) { _ in .done(()) })
            }
        }
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            // Ann installs again: her install was counted already, under the mark she makes now.
            #expect(try await client.send(.post, APIPath.registryInstalls("sysmon"), token: ann, rawBody: nil).status == .noContent)
            let page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.installs == 2)
            let suggested = try await client.send(.get, APIPath.registrySuggestions, token: ann).decode([AppSuggestion].self)
            #expect(suggested.isEmpty, "what she installed is not suggested to her")
        }
        let named = try await harness.withStore { try await Self.rows("SELECT app_id, user_id FROM registry_installs", in: $0) }
        #expect(named.isEmpty)
    }

    /// Every row `query` reads, each column as text.
    static func rows(_ query: SQLStatement, in store: BFFStore) async throws -> [[String]] {
        try await store.runRead(Plan.run(query) { rows in
            .done(rows.map { row in (0..<2).map { column in
                switch row[column] {
                case .text(let text)?: text
                case .integer(let number)?: String(number)
                default: "?"
                }
            } })
        }, snapshot: false)
    }
}
