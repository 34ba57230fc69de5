import AppPackages
import Foundation
import MicroAppProtocol
import ServerAPI
import Testing

/// Issue 52: what an app may do is one list, made from its manifest; every question about an app
/// (its page, `apps install`, `apps update`'s diff) is made from it, so an update cannot gain what
/// it never showed.
struct ManifestCapabilityTests {
    /// A new field of `AppManifest` fails here until it is placed: a capability, or nothing given.
    @Test func everyFieldOfAManifestIsInTheListOrGivesNothing() {
        let fields = Set(Mirror(reflecting: AppManifest(id: "x", name: "X", version: "1.0.0", exec: ["x"])).children.compactMap(\.label))
        #expect(fields == PackagePermissions.manifestFields.union(PackagePermissions.manifestFieldsGivingNothing))
        #expect(PackagePermissions.manifestFields.isDisjoint(with: PackagePermissions.manifestFieldsGivingNothing))
    }

    /// 1.1.1 adds variables holding secrets, another folder to run in and 4 GiB of memory: each is
    /// what it adds, said in words; the same again adds nothing.
    @Test func anUpdateShowsTheVariablesTheFolderAndTheLimitsItAdds() {
        let before = AppManifest(id: "demo", name: "Demo", version: "1.1.0", exec: ["python3", "app.py"])
        var after = before
        after.version = "1.1.1"
        after.environment = ["AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "SSH_AUTH_SOCK"]
        after.workingDirectory = "/var/tmp"
        after.limits.memoryBytes = 4 << 30
        let added = PackagePermissions(after).added(since: PackagePermissions(before))
        #expect(added.inWords == ["see the variables AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, SSH_AUTH_SOCK", "run in /var/tmp",
                                  "at most 4 GiB of memory, 256 processes, 256 MiB kept in its folders, 64 open files"])
        #expect(PackagePermissions(after).added(since: PackagePermissions(after)).isEmpty)
        // Less is not more: a smaller limit adds nothing.
        var smaller = before
        smaller.limits.memoryBytes = 64 << 20
        #expect(PackagePermissions(smaller).added(since: PackagePermissions(before)).isEmpty)
    }

    /// A page of a server older than these fields still reads; what it lacks is what it does not show.
    @Test func aPageWithoutTheNewFieldsReads() throws {
        let old = #"{"publish":[],"subscribe":[],"http":[],"state":false,"read":["/proc"],"write":[],"connect":[],"run":[]}"#
        let permissions = try JSONDecoder().decode(PackagePermissions.self, from: Data(old.utf8))
        #expect(permissions == PackagePermissions(read: ["/proc"]))
        let round = try JSONDecoder().decode(PackagePermissions.self, from: JSONEncoder().encode(PackagePermissions(before())))
        #expect(round == PackagePermissions(before()))
    }

    private func before() -> AppManifest {
        var manifest = AppManifest(id: "demo", name: "Demo", version: "1.0.0", exec: ["node", "app.js"], environment: ["LANGUAGE"])
        manifest.limits.cpuSeconds = 30
        return manifest
    }
}
