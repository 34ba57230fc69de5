import PlainText
import ServerAPI

/// A micro-app's files as a package carries them: a tar archive (POSIX ustar) in one canonical
/// form, so that the same files always make the same bytes and so the same SHA-256 (the digest a
/// package is published, shown and checked under).
///
/// The canonical form: regular files only (folders are implied by the paths), sorted by path
/// bytes; mode 0644, or 0755 for an executable; owner, group and times zero, no user or group
/// names; each file's data padded to 512 bytes; two zero blocks at the end and nothing after.
/// `decode` takes exactly that form and nothing else: an archive it accepts encodes back to the
/// same bytes, so links, devices, odd modes and bytes hidden after the end are all refused.
public struct PackageArchive: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// Relative, `/`-separated, each part a visible name (`PackageArchive.isPath`).
        public let path: String
        public let isExecutable: Bool
        public let bytes: [UInt8]

        public init(path: String, isExecutable: Bool, bytes: [UInt8]) {
            self.path = path
            self.isExecutable = isExecutable
            self.bytes = bytes
        }
    }

    /// Sorted by path bytes.
    public let files: [File]

    /// The archive of `files`, after checking them against the rules and `PackageLimits`.
    public init(files: [File]) throws(PackageArchiveError) {
        let sorted = files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        try Self.check(sorted)
        self.files = sorted
    }

    public static let manifestPath = "app.yaml"

    /// The manifest's bytes.
    public var manifest: [UInt8] { files.first { $0.path == Self.manifestPath }?.bytes ?? [] }

    /// The canonical bytes.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(files.reduce(1024) { $0 + 512 + ($1.bytes.count + 511) / 512 * 512 })
        for file in files {
            bytes += Self.header(for: file)
            bytes += file.bytes
            bytes += [UInt8](repeating: 0, count: (512 - file.bytes.count % 512) % 512)
        }
        bytes += [UInt8](repeating: 0, count: 1024)
        return bytes
    }

    /// The archive these bytes are, when they are one in the canonical form within the limits.
    public init(decoding bytes: [UInt8]) throws(PackageArchiveError) {
        guard bytes.count <= PackageLimits.archiveBytes else { throw .tooLarge(bytes.count) }
        guard bytes.count % 512 == 0, bytes.count >= 1024 else { throw .notCanonical("its length is not whole 512-byte blocks") }
        var files: [File] = []
        var offset = 0
        while offset + 512 <= bytes.count {
            let header = Array(bytes[offset..<offset + 512])
            if header.allSatisfy({ $0 == 0 }) { break }
            guard header[156] == UInt8(ascii: "0") else { throw .notCanonical("it holds something other than plain files") }
            guard let path = String(validating: header[0..<100].prefix { $0 != 0 }, as: UTF8.self) else {
                throw .notCanonical("a file's name is not UTF-8")
            }
            guard let size = Self.octal(header[124..<135]), size <= bytes.count - offset - 512 else {
                throw .notCanonical("\(path)'s size is unreadable or past the end")
            }
            let mode = Self.octal(header[100..<107])
            let start = offset + 512
            files.append(File(path: path, isExecutable: mode == 0o755, bytes: Array(bytes[start..<start + size])))
            offset = start + (size + 511) / 512 * 512
        }
        let archive = try PackageArchive(files: files)
        guard archive.encoded() == bytes else { throw .notCanonical("it is not in the canonical form (modes, owners, times, order or padding)") }
        self = archive
    }

    /// Whether `path` may name a file of a package: relative, parts joined by `/`, each part a
    /// name that does not start with `.` (no `.`, `..`, hidden files or empty parts), no control
    /// or bidirectional characters (`ControlScalars`) and no backslash, in NFC, at most
    /// `PackageLimits.pathBytes` bytes and `PackageLimits.depth` parts.
    public static func isPath(_ path: String) -> Bool {
        guard (1...PackageLimits.pathBytes).contains(path.utf8.count),
              !path.unicodeScalars.contains(where: { ControlScalars.contains($0) || $0 == "\\" }), ControlScalars.isNFC(path)
        else { return false }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count <= PackageLimits.depth && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") }
    }

    private static func check(_ files: [File]) throws(PackageArchiveError) {
        guard files.count <= PackageLimits.files else { throw .tooManyFiles(files.count) }
        for file in files where !isPath(file.path) { throw .badPath(file.path) }
        var paths = Set<String>()
        for file in files where !paths.insert(file.path).inserted { throw .duplicate(file.path) }
        for file in files {
            var folder = Substring(file.path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if paths.contains(String(folder)) { throw .duplicate(String(folder)) }
            }
        }
        guard files.contains(where: { $0.path == manifestPath }) else { throw .noManifest }
        let total = files.reduce(1024) { $0 + 512 + ($1.bytes.count + 511) / 512 * 512 }
        guard total <= PackageLimits.archiveBytes else { throw .tooLarge(total) }
    }

    private static func header(for file: File) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
        }
        put(file.path, at: 0)
        put(file.isExecutable ? "0000755" : "0000644", at: 100)
        put("0000000", at: 108)
        put("0000000", at: 116)
        put(octal(file.bytes.count, digits: 11), at: 124)
        put("00000000000", at: 136)
        header[156] = UInt8(ascii: "0")
        put("ustar", at: 257)
        put("00", at: 263)
        put("        ", at: 148)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, digits: 6), at: 148)
        header[154] = 0
        header[155] = UInt8(ascii: " ")
        return header
    }

    private static func octal(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 8)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// An octal field's value; nil unless it is all octal digits (checked later against the
    /// canonical encoding, which pads them).
    private static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        guard !field.isEmpty, field.count <= 11 else { return nil }
        var value = 0
        for byte in field {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) else { return nil }
            value = value * 8 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

/// Why some files or bytes are not a package.
public enum PackageArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(Int)
    case tooManyFiles(Int)
    case badPath(String)
    case duplicate(String)
    case noManifest
    case notCanonical(String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes):
            "the package would be \(ByteCount.words(bytes)), over the \(ByteCount.words(PackageLimits.archiveBytes)) a package may be"
        case .tooManyFiles(let count): "it has \(count) files; a package may have at most \(PackageLimits.files)"
        case .badPath(let path):
            "'\(path)' cannot be in a package: a path is relative, at most \(PackageLimits.pathBytes) bytes and \(PackageLimits.depth) folders deep, in NFC, with no hidden files, backslashes, or control or bidirectional characters"
        case .duplicate(let path): "'\(path)' is in it twice (or as a file and a folder)"
        case .noManifest: "it has no \(PackageArchive.manifestPath) at its top"
        case .notCanonical(let why): "it is not a TermCanvas package: \(why)"
        }
    }
}
