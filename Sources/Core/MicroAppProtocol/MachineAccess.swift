/// What an app may touch of the user's machine beyond its own folders (its manifest's
/// `permissions`): files to read and to write, TCP ports to connect to, programs outside the system
/// to run. The sandbox allows exactly this; everything else of the user's is refused by the kernel.
public struct MachineAccess: Hashable, Sendable {
    /// Folders or files it reads: `~/notes`, `/proc`.
    public var read: [String]
    /// Folders or files it reads and writes (creates, removes, renames beneath).
    public var write: [String]
    /// TCP ports it connects to, on any address (the kernel filters by port only).
    public var connect: [Int]
    /// Programs outside the system's folders it runs: `~/bin/tool` (the system's own run anyway).
    public var run: [String]

    public init(read: [String] = [], write: [String] = [], connect: [Int] = [], run: [String] = []) {
        self.read = read
        self.write = write
        self.connect = connect
        self.run = run
    }

    public static let none = MachineAccess()

    public var isEmpty: Bool { self == .none }

    /// The most entries of each list a manifest may give.
    public static let maximumEntries = 16
    /// The longest path, in bytes.
    public static let maximumPathBytes = 256

    /// Whether `path` may be named: `~/…` or absolute, each part a name (no `.`, `..` or empty
    /// part), no control characters, not the whole home folder or the root, at most 256 bytes.
    public static func isPath(_ path: String) -> Bool {
        guard path.utf8.count <= maximumPathBytes, !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return false }
        let rest: Substring
        if path.hasPrefix("~/") {
            rest = path.dropFirst(2)
        } else if path.hasPrefix("/") {
            rest = path.dropFirst()
        } else {
            return false
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        return !rest.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Whether `program` may be named in `run`: a path as `isPath` says, or a bare program name
    /// (looked up in `PATH`).
    public static func isProgram(_ program: String) -> Bool {
        if program.contains("/") { return isPath(program) }
        return !program.isEmpty && program.utf8.count <= 64 && program != "." && program != ".."
            && program.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789._+-".unicodeScalars.contains($0) }
    }

    /// Each access in words, as the user is asked for it (empty for none).
    public var inWords: [String] {
        var lines: [String] = []
        if !read.isEmpty { lines.append("reads " + read.joined(separator: ", ")) }
        if !write.isEmpty { lines.append("reads and writes " + write.joined(separator: ", ")) }
        if !connect.isEmpty {
            lines.append((connect.count == 1 ? "connects to port " : "connects to ports ")
                         + connect.map(String.init).joined(separator: ", ") + " (any address; and looks up names)")
        }
        if !run.isEmpty { lines.append((run.count == 1 ? "runs the program " : "runs the programs ") + run.joined(separator: ", ")) }
        return lines
    }

    var json: JSONValue {
        .object(["files": .object(["read": .array(read.map(JSONValue.string)), "write": .array(write.map(JSONValue.string))]),
                 "network": .object(["connect": .array(connect.map { .number(Double($0)) })]),
                 "run": .array(run.map(JSONValue.string))])
    }
}
