import Foundation
import LayoutStore
import Testing

/// A layout database in a folder the product did not make: a shared one (mode 1777, as the
/// system's temporary folder) keeps its mode, though a loose folder of the product's own is
/// tightened. (This suite's other tests keep databases in /tmp itself, which, run as root, had
/// been left 0700 for every other user.)
@Suite("The layout database's folder")
struct SharedFolderTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o7777
    }

    @Test(arguments: [(0o1777, 0o1777), (0o777, 0o777), (0o755, 0o700)] as [(mode_t, mode_t)])
    func aSharedFolderKeepsItsModeAndTheProductsOwnIsTightened(_ example: (mode_t, mode_t)) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-shared-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chmod(folder.path, example.0) == 0)
        _ = try LayoutStore.open(at: folder.appendingPathComponent("layouts.sqlite"))
        #expect(Self.mode(folder.path) == example.1, "\(String(Self.mode(folder.path), radix: 8))")
        #expect(Self.mode(folder.appendingPathComponent("layouts.sqlite").path) == 0o600)
    }
}
