import AppPackages
import Foundation
import ServerAPI
import TestSupport
import Testing

@Suite("A package's archive: one canonical tar, read back strictly")
struct PackageArchiveTests {
    static let files: [PackageArchive.File] = [
        .init(path: "main.py", isExecutable: true, bytes: Array("print('hi')\n".utf8)),
        .init(path: "app.yaml", isExecutable: false, bytes: Array("id: sysmon\n".utf8)),
        .init(path: "lib/util.py", isExecutable: false, bytes: [UInt8](repeating: 0x41, count: 1000)),
    ]

    @Test("the same files in any order make the same bytes, which read back to them")
    func canonical() throws {
        let one = try PackageArchive(files: Self.files).encoded()
        let other = try PackageArchive(files: Self.files.reversed()).encoded()
        #expect(one == other)
        #expect(one.count % 512 == 0)
        let read = try PackageArchive(decoding: one)
        #expect(read.files.map(\.path) == ["app.yaml", "lib/util.py", "main.py"])
        #expect(read.files.map(\.isExecutable) == [false, false, true])
        #expect(read.manifest == Array("id: sysmon\n".utf8))
    }

    @Test("tar reads it: names, modes and contents as written")
    func tarReadsIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.tar")
        try Data(try PackageArchive(files: Self.files).encoded()).write(to: file)
        #expect(try await Command.run(["tar", "-xf", file.path, "-C", folder.path]).status == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("lib/util.py")) == Data(repeating: 0x41, count: 1000))
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("main.py").path)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o100 } == 0o100)
    }

    @Test("what is not in the canonical form is refused: a changed mode, time or owner, trailing bytes, a link, a short block")
    func strict() throws {
        let good = try PackageArchive(files: Self.files).encoded()
        func changed(_ offset: Int, _ byte: UInt8) -> [UInt8] {
            var bytes = good
            bytes[offset] = byte
            return bytes
        }
        for (bytes, what) in [
            (changed(100 + 4, UInt8(ascii: "7")), "mode"),
            (changed(136 + 10, UInt8(ascii: "1")), "time"),
            (changed(108 + 6, UInt8(ascii: "1")), "owner"),
            (changed(156, UInt8(ascii: "2")), "a symbolic link"),
            (good + [UInt8](repeating: 0, count: 512), "trailing block"),
            (Array(good.dropLast(100)), "short"),
            ([UInt8](repeating: 0, count: 1024), "no files"),
        ] {
            #expect(throws: PackageArchiveError.self, "\(what)") { try PackageArchive(decoding: bytes) }
        }
    }

    @Test("an archive naming a file outside its folder (its header and checksum otherwise right) is refused for its path")
    func climbingOut() throws {
        var bytes = try PackageArchive(files: Self.files).encoded()
        // The first header is app.yaml's: named ../app.yaml, its checksum made right again.
        let name = Array("../app.yaml".utf8)
        for index in 0..<100 { bytes[index] = index < name.count ? name[index] : 0 }
        for index in 148..<156 { bytes[index] = UInt8(ascii: " ") }
        let sum = String(bytes[0..<512].reduce(0) { $0 + Int($1) }, radix: 8)
        let field = Array((String(repeating: "0", count: 6 - sum.count) + sum).utf8) + [0, UInt8(ascii: " ")]
        bytes.replaceSubrange(148..<156, with: field)
        #expect(throws: PackageArchiveError.badPath("../app.yaml")) { try PackageArchive(decoding: bytes) }
    }

    @Test("paths: relative, no hidden part, no climbing out, bounded; no control or bidirectional character, one spelling (NFC)", arguments: [
        ("../escape", false), ("/etc/passwd", false), ("a/../b", false), (".env", false), ("lib/.hidden", false), ("a//b", false),
        ("tab\there", false), (String(repeating: "a", count: 101), false), ("a/b/c/d/e/f/g/h/i", false),
        ("next\u{85}line", false), ("csi\u{9B}31m", false), ("fdp.\u{202E}txt.py", false), ("a\u{2066}b", false), ("a\u{200F}b", false),
        ("e\u{301}.txt", false), ("back\\slash", false),
        ("main.py", true), ("lib/util.py", true), ("données/é.txt", true),
    ])
    func paths(path: String, accepted: Bool) {
        #expect(PackageArchive.isPath(path) == accepted)
    }

    @Test("a file that is also a folder, a file twice, no app.yaml, too many files: each refused with its reason")
    func shapes() {
        let manifest = PackageArchive.File(path: "app.yaml", isExecutable: false, bytes: [])
        let file = PackageArchive.File(path: "lib", isExecutable: false, bytes: [])
        let inside = PackageArchive.File(path: "lib/x", isExecutable: false, bytes: [])
        #expect(throws: PackageArchiveError.duplicate("lib")) { try PackageArchive(files: [manifest, file, inside]) }
        // Sorted, lib-2 comes between lib and lib/x.
        let between = PackageArchive.File(path: "lib-2", isExecutable: false, bytes: [])
        #expect(throws: PackageArchiveError.duplicate("lib")) { try PackageArchive(files: [manifest, file, between, inside]) }
        #expect(throws: PackageArchiveError.duplicate("lib")) { try PackageArchive(files: [manifest, file, file]) }
        #expect(throws: PackageArchiveError.noManifest) { try PackageArchive(files: [file]) }
        let many = (0...PackageLimits.files).map { PackageArchive.File(path: "f\($0)", isExecutable: false, bytes: []) }
        #expect(throws: PackageArchiveError.tooManyFiles(PackageLimits.files + 2)) { try PackageArchive(files: many + [manifest]) }
        let large = PackageArchive.File(path: "big", isExecutable: false, bytes: [UInt8](repeating: 0, count: PackageLimits.archiveBytes))
        #expect(throws: PackageArchiveError.self) { try PackageArchive(files: [manifest, large]) }
    }

    @Test("a new version's permissions beside the old: only what is added")
    func added() {
        let old = PackagePermissions(publish: ["a.b.c"], read: ["/proc"], connect: [80])
        let new = PackagePermissions(publish: ["a.b.c"], state: true, read: ["/proc", "~/notes"], connect: [80, 443])
        #expect(new.added(since: old) == PackagePermissions(state: true, read: ["~/notes"], connect: [443]))
        #expect(old.added(since: new).isEmpty)
        #expect(new.added(since: old).inWords == ["keep state with the layout", "reads ~/notes",
                                                   "connects to port 443 (any address; and looks up names)"])
    }
}
