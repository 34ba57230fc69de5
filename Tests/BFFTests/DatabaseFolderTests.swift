@testable import BFF
import Foundation
import PrivateFiles
@testable import ServerStore
import Testing

/// A database path the user names loosens nothing and tightens nothing it did not create: a
/// shared folder (mode 1777, such as /tmp) or an ordinary one (0755) keeps its mode, a missing one
/// is made 0700, and another user's folder is refused.
@Suite("The database's folder: made private when missing, never changed when it exists")
struct DatabaseFolderTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o7777
    }

    static func folder(mode: mode_t) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tc-db-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        #expect(chmod(url.path, mode) == 0)
        return url
    }

    @Test(arguments: [0o1777, 0o755] as [mode_t])
    func anExistingFolderKeepsItsMode(mode: mode_t) throws {
        let folder = try Self.folder(mode: mode)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("bff.sqlite")
        _ = try SQLiteStore.open(at: database)
        _ = try SigningSecret.loadOrCreate(in: folder)
        #expect(Self.mode(folder.path) == mode, "the folder's mode changed")
        #expect(Self.mode(database.path) == 0o600)
        #expect(Self.mode(folder.appendingPathComponent(SigningSecret.fileName).path) == 0o600)
        #expect(PrivatePath.othersMayWrite(folder) == (mode & 0o022 != 0))
    }

    @Test func aMissingFolderIsMadePrivate() throws {
        let parent = try Self.folder(mode: 0o755)
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("new/deeper")
        _ = try SQLiteStore.open(at: folder.appendingPathComponent("bff.sqlite"))
        #expect(Self.mode(folder.path) == 0o700)
        #expect(Self.mode(parent.appendingPathComponent("new").path) == 0o700)
        #expect(Self.mode(parent.path) == 0o755)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a folder to another user"))
    func anotherUsersFolderIsRefused() throws {
        let folder = try Self.folder(mode: 0o1777)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(chown(folder.path, 65534, 65534) == 0)
        #expect(throws: PrivatePathError.notOwned(path: folder.path)) {
            _ = try SQLiteStore.open(at: folder.appendingPathComponent("bff.sqlite"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bff.sqlite").path))
        #expect(Self.mode(folder.path) == 0o1777)
    }
}
