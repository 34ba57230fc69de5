import ServerAPI
import Testing

/// Versions as SemVer 2.0.0 (semver.org) defines them: its grammar, and its precedence.
struct SemanticVersionTests {
    @Test func precedenceIsSemVers() throws {
        // semver.org §11's own example, then an alphanumeric identifier that starts with a hyphen.
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                       "1.0.0-rc.1", "1.0.0-rc.-1", "1.0.0", "2.0.0-rc.1", "2.0.0-rc.-1", "2.0.0"]
        let versions = try ordered.map { try #require(SemanticVersion($0), "\($0)") }
        for (lower, higher) in zip(versions, versions.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower), "not \(higher) < \(lower)")
        }
        #expect(SemanticVersion("1.0.0+a") == SemanticVersion("1.0.0+b"))
    }

    @Test(arguments: ["1.0.0-rc.01", "1.0.0-00", "01.0.0", "1.00.0", "1.0.0-", "1.0.0-rc..1", "1.0.0+", "1.0.0+a..b", "1.0",
                      "1.0.0-rc.1_2", "1.0.0-ré", "v1.0.0", "1.0.0-rc+", " 1.0.0"])
    func invalidVersionsAreRefused(_ text: String) {
        #expect(SemanticVersion(text) == nil)
    }

    @Test(arguments: ["1.0.0-rc.-1", "1.0.0--", "1.0.0-0", "1.0.0-0a", "1.0.0-a-b.0.c", "1.0.0+001", "1.0.0-x.7.z.92+exp.sha.5114f85"])
    func validVersionsAreKeptAsWritten(_ text: String) throws {
        #expect(try #require(SemanticVersion(text)).description == text)
    }
}
