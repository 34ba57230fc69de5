import CBuildInfo

/// What `termcanvas --version` and `termcanvas-bff --version` say: the release's number and the
/// commit the binary was built from (recorded by `make`; a build by `swift build` alone has none).
public enum BuildVersion {
    /// The release's number, as `make dist` and `make deb` name their files.
    public static let number = "0.9.0"

    /// The commit, or nil when the build recorded none.
    public static var commit: String? {
        let commit = String(cString: tc_build_commit())
        return commit.isEmpty ? nil : commit
    }

    /// `0.9.0 (commit 1a2b3c4d5e6f)`, or `0.9.0 (commit not recorded: built without make)`.
    public static var text: String {
        "\(number) (commit \(commit ?? "not recorded: built without make"))"
    }
}
