import Foundation
import Testing
@testable import BFFAccess
import PrivateFiles

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ServerURLTests {
    @Test func reducesToTheOrigin() throws {
        #expect(try ServerURL("http://Team.Example:7450/").origin == "http://team.example:7450")
        #expect(try ServerURL(" https://bff.example ").origin == "https://bff.example")
        #expect(try ServerURL("http://[::1]:7450").origin == "http://[::1]:7450")
        #expect(try ServerURL("http://team.example:7450").fileStem == "http_team.example_7450")
    }

    @Test(arguments: ["team.example:7450", "ftp://team.example", "http://", "http://team.example/api",
                      "http://team.example?x=1", "http://user:pw@team.example", ""])
    func refusesWhatIsNotAServerAddress(_ text: String) {
        #expect(throws: BFFAccessError.self) { try ServerURL(text) }
    }
}

@Suite struct CredentialStoreTests {
    private func withStore(_ body: (CredentialStore, URL) throws -> Void) throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("cred-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: base) }
        // The directory and its parents do not exist yet, as on a first login.
        try body(CredentialStore(directory: base.appendingPathComponent("termcanvas/credentials")), base)
    }

    @Test func savesPrivatelyAndReadsBackPerServer() throws {
        try withStore { store, _ in
            let team = try ServerURL("http://team.example:7450")
            let other = try ServerURL("http://other.example:7450")
            try store.save(Credential(server: team, user: "ada", token: "t1"))
            #expect(try store.credential(for: team) == Credential(server: team, user: "ada", token: "t1"))
            #expect(try store.credential(for: other) == nil)
            var info = stat()
            stat(store.file(for: team).path, &info)
            #expect(info.st_mode & 0o777 == 0o600)
            stat(store.directory.path, &info)
            #expect(info.st_mode & 0o777 == 0o700)
            // A second login replaces the first.
            try store.save(Credential(server: try ServerURL("http://TEAM.example:7450/"), user: "bob", token: "t2"))
            #expect(try store.credential(for: team)?.user == "bob")
        }
    }

    @Test func aDamagedFileIsAnErrorNamingIt() throws {
        try withStore { store, _ in
            let team = try ServerURL("http://team.example:7450")
            try store.save(Credential(server: team, user: "ada", token: "t1"))
            try PrivateFile.write("{\"server\": 1", to: store.file(for: team))
            #expect(throws: BFFAccessError.malformedCredential(path: store.file(for: team).path)) {
                try store.credential(for: team)
            }
        }
    }
}
