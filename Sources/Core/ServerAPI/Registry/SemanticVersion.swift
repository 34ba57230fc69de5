import CalendarTime
/// A semantic version, `MAJOR.MINOR.PATCH` with an optional `-prerelease` and `+build`, ordered
/// by the rules of semver.org: build metadata does not count, a pre-release comes before its
/// release, pre-release identifiers compare numerically when both are numbers.
public struct SemanticVersion: Sendable, Hashable, Comparable, LosslessStringConvertible, TextCoded {
    public let major: Int
    public let minor: Int
    public let patch: Int
    public let prerelease: [String]
    public let build: String?

    /// Parses `1.2.3`, `1.2.3-rc.1`, `1.2.3+abc`; nil for anything else (at most 64 characters).
    public init?(_ text: String) {
        guard text.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-+".contains($0)) }) else {
            return nil
        }
        var rest = Substring(text)
        var build: String?
        if let plus = rest.firstIndex(of: "+") {
            build = String(rest[rest.index(after: plus)...])
            rest = rest[..<plus]
            guard let build, Self.isValidIdentifiers(build, numericMayLeadWithZero: true) else { return nil }
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            let text = String(rest[rest.index(after: dash)...])
            guard Self.isValidIdentifiers(text, numericMayLeadWithZero: false) else { return nil }
            prerelease = text.split(separator: ".").map(String.init)
            rest = rest[..<dash]
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3, core.allSatisfy(Self.isNumber) else { return nil }
        guard let major = Int(core[0]), let minor = Int(core[1]), let patch = Int(core[2]) else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (prerelease.isEmpty ? "" : "-" + prerelease.joined(separator: ".")) + (build.map { "+\($0)" } ?? "")
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        switch (lhs.prerelease.isEmpty, rhs.prerelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): break
        }
        // Identifiers of digits only compare as numbers and come before the others, which compare
        // in ASCII order; `-1` is not a number but an alphanumeric identifier (Int would read it).
        for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
            switch (isDigits(left), isDigits(right)) {
            case (true, true): return left.count != right.count ? left.count < right.count : left < right
            case (true, false): return true
            case (false, true): return false
            case (false, false): return Array(left.utf8).lexicographicallyPrecedes(right.utf8)
            }
        }
        return lhs.prerelease.count < rhs.prerelease.count
    }

    /// Equal precedence: versions that differ only in build metadata are the same version.
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) == (rhs.major, rhs.minor, rhs.patch) && lhs.prerelease == rhs.prerelease
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
        hasher.combine(patch)
        hasher.combine(prerelease)
    }

    public static func parse(_ text: String) -> Self? { SemanticVersion(text) }
    public static let expected = "a version such as 1.2.3"

    /// A numeric identifier: ASCII digits only (without a leading zero, as parsing checked).
    private static func isDigits(_ identifier: String) -> Bool {
        identifier.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A numeric part: ASCII digits, no leading zero, at most `largestNumber`.
    private static func isNumber(_ part: Substring) -> Bool {
        !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && (part == "0" || part.first != "0")
            && part.count <= 10 && (Int(part) ?? .max) <= largestNumber
    }

    /// The largest number of a version's parts (2^31 − 1): every client can hold it in a 32-bit
    /// integer.
    public static let largestNumber = Int(Int32.max)

    /// How far past the newest published major version a new one may go: no publish can take a
    /// number so large that nothing newer could follow (`2147483647.0.0`); a calendar version
    /// (`2026.11.0`) may still be an app's first.
    public static let largestMajorStep = 1000

    /// Whether this version may follow `newest` (the newest ever published): newer, and its major
    /// at most `largestMajorStep` past.
    public func mayFollow(_ newest: SemanticVersion) -> Bool {
        self > newest && major - newest.major <= Self.largestMajorStep
    }

    /// The version an app offers by default among `versions`: its newest release; a pre-release
    /// only when there is no release at all. `apps install --pre` and `ID@VERSION` ask for others.
    public static func current(of versions: some Sequence<SemanticVersion>) -> SemanticVersion? {
        let all = Array(versions)
        return all.filter(\.prerelease.isEmpty).max() ?? all.max()
    }

    private static func isValidIdentifiers(_ text: String, numericMayLeadWithZero: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { part in
            guard !part.isEmpty, part.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return false }
            return numericMayLeadWithZero || !part.allSatisfy(\.isNumber) || isNumber(part)
        }
    }
}
