/// The micro-app protocol's version, `MAJOR.MINOR`: a host runs an app of the same major version
/// (minor versions only add what old peers ignore) and shows any other one in the pane.
public struct ProtocolVersion: Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Reads `1`, `1.0` or `1.2`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let major = Int(parts[0]), major >= 0,
              let minor = parts.count == 2 ? Int(parts[1]) : 0, minor >= 0 else { return nil }
        self.init(major: major, minor: minor)
    }

    /// The version this code speaks: 1.1 added `initialize`'s `events` and the `settings`
    /// notification, by the document's own rule for what a minor version may add.
    public static let current = ProtocolVersion(major: 1, minor: 1)

    public func canTalk(to other: ProtocolVersion) -> Bool { major == other.major }

    public var description: String { "\(major).\(minor)" }
}
