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

    /// Each number fits in 32 bits, and no publish takes a number so large that nothing could
    /// follow it: a new major version may be at most 1 000 past the newest.
    @Test func numbersAreBoundedAndCannotBeUsedUp() throws {
        #expect(SemanticVersion("2147483647.0.0") != nil)
        #expect(SemanticVersion("2147483648.0.0") == nil)
        #expect(SemanticVersion("1.0.0-rc.2147483648") == nil)
        let one = try #require(SemanticVersion("1.0.0"))
        #expect(try #require(SemanticVersion("1001.0.0")).mayFollow(one))
        #expect(!(try #require(SemanticVersion("1002.0.0")).mayFollow(one)))
        #expect(!(try #require(SemanticVersion("999999999.999999999.999999999")).mayFollow(one)))
        #expect(try #require(SemanticVersion("1.999999999.0")).mayFollow(one))
        #expect(!one.mayFollow(one))
    }

    /// What a package offers by default: its newest release; a pre-release only when it has no release.
    @Test func theCurrentVersionIsTheNewestRelease() throws {
        let versions = try ["1.0.0", "1.1.0-rc.1", "0.9.0"].map { try #require(SemanticVersion($0)) }
        #expect(SemanticVersion.current(of: versions)?.description == "1.0.0")
        #expect(SemanticVersion.current(of: [versions[1]])?.description == "1.1.0-rc.1")
        #expect(SemanticVersion.current(of: []) == nil)
    }
}
