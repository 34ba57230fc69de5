import CanvasCore
import TestSupport
import Foundation
import Testing

/// Everything the product writes is its user's alone, whatever the umask: each directory it makes
/// is 0700, each file (databases and their WAL, logs, tokens, secrets, locks) 0600.
@Suite("Files the product writes are private", .serialized)
struct FilePermissionsTests {
    @Test("a whole session under umask 022: dashboard, embedded server, a todo, quit")
    func privateUnderLooseUmask() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tc-perms-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
                           "XDG_CONFIG_HOME": home.path + "/config", "XDG_RUNTIME_DIR": home.path + "/run"]
        let session = try await TmuxSession(["sh", "-c", "umask 022; exec \"$0\" --date 2026-11-22", Products.termcanvas.path],
                                            size: Size(width: 120, height: 40), environment: environment)
        try await session.waitFor("Chat #general")
        try await session.send("M-1")
        try await session.send("n")
        try await session.sendLiteral("Private")
        try await session.send("Enter")
        // The first frame says nothing of a server that is still starting, so a quiet title is no
        // sign of one: wait until the embedded server has written its token and taken the todo.
        let token = home.appendingPathComponent("run/termcanvas/bff.token").path
        try await session.waitForScreen(timeout: .seconds(20), "the todo sent to a running server") { screen in
            let text = screen.joined()
            return FileManager.default.fileExists(atPath: token) && text.contains("[ ] Private")
                && !text.contains("unsent") && !text.contains("· connecting") && !text.contains("· offline")
        }
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)

        var checked = 0
        var loose: [String] = []
        let walker = FileManager.default.enumerator(atPath: home.path)
        while let relative = walker?.nextObject() as? String {
            let path = home.path + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let mode = info.st_mode & 0o777
            switch info.st_mode & S_IFMT {
            case S_IFDIR: if mode != 0o700 { loose.append("\(relative) \(String(mode, radix: 8))") }
            case S_IFREG: if mode != 0o600 { loose.append("\(relative) \(String(mode, radix: 8))") }
            default: continue  // the server's socket, inside a 0700 directory
            }
            checked += 1
        }
        #expect(loose.isEmpty, "not private: \(loose)")
        // The session wrote what it should have: layouts, cache, server database, logs, token.
        let written = (FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String]) ?? []
        for name in ["layouts.sqlite", "local.sqlite", "bff.sqlite", "bff.sqlite-wal", "termcanvas.log", "bff.log", "bff.token", "jwt-secret"] {
            #expect(written.contains { $0.hasSuffix("/" + name) }, "\(name) in \(written)")
        }
        #expect(checked > 10)
    }
}
