import Foundation
import Testing
@testable import BFFAccess
import PrivateFiles

#if canImport(Glibc)
import Glibc
#endif

/// A fresh private directory per test, removed afterwards.
@discardableResult
private func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("localbff-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

private func mode(_ url: URL) -> mode_t {
    var info = stat()
    _ = lstat(url.path, &info)
    return info.st_mode & 0o777
}

@Suite struct RuntimeDirectoryTests {
    @Test func usesXDGRuntimeDirAndFallsBackToTmpPerUser() {
        #expect(RuntimeDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]).url.path == "/run/user/1000/termcanvas")
        #expect(RuntimeDirectory(environment: [:]).url.path == "/tmp/termcanvas-\(getuid())")
        // The XDG spec says relative values are to be ignored.
        #expect(RuntimeDirectory(environment: ["XDG_RUNTIME_DIR": "run"]).url.path == "/tmp/termcanvas-\(getuid())")
    }

    @Test func prepareCreatesAPrivateDirectoryAndTightensALoosenedOne() async throws {
        try await withTemporaryDirectory { base in
            let directory = RuntimeDirectory(environment: ["XDG_RUNTIME_DIR": base.path])
            try directory.prepare()
            #expect(mode(directory.url) == 0o700)
            chmod(directory.url.path, 0o755)
            try directory.prepare()
            #expect(mode(directory.url) == 0o700)
        }
    }

    @Test func refusesASymlinkOrAFile() async throws {
        try await withTemporaryDirectory { base in
            let target = base.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let link = base.appendingPathComponent("termcanvas")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            #expect(throws: BFFAccessError.unsafeDirectory(path: link.path, reason: "not a directory")) {
                try RuntimeDirectory(url: link).prepare()
            }
            let file = base.appendingPathComponent("file")
            _ = FileManager.default.createFile(atPath: file.path, contents: Data())
            #expect(throws: BFFAccessError.unsafeDirectory(path: file.path, reason: "not a directory")) {
                try RuntimeDirectory(url: file).prepare()
            }
        }
    }

    @Test func refusesADirectoryWhoseSocketPathCannotBeBound() async throws {
        try await withTemporaryDirectory { base in
            let deep = base.appendingPathComponent(String(repeating: "d", count: 100))
            let directory = RuntimeDirectory(url: deep)
            #expect(throws: BFFAccessError.socketPathTooLong(path: directory.socket.path)) { try directory.prepare() }
        }
    }
}

@Suite struct PrivateFileTests {
    @Test func writesMode0600AndReplacesWholeFiles() async throws {
        try await withTemporaryDirectory { base in
            let url = base.appendingPathComponent("token")
            try PrivateFile.write("first-token", to: url)
            #expect(mode(url) == 0o600)
            #expect(try PrivateFile.read(url) == "first-token")
            try PrivateFile.write("second", to: url)
            #expect(try PrivateFile.read(url) == "second")
            #expect(mode(url) == 0o600)
            // No temporary file is left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["token"])
        }
    }

    @Test func readsNothingFromAMissingFileAndRefusesAReadableOne() async throws {
        try await withTemporaryDirectory { base in
            let url = base.appendingPathComponent("token")
            #expect(try PrivateFile.read(url) == nil)
            try PrivateFile.write("secret", to: url)
            chmod(url.path, 0o644)
            #expect(throws: PrivatePathError.unsafe(path: url.path, reason: "the file is readable by others (expected mode 0600)")) {
                try PrivateFile.read(url)
            }
        }
    }
}

@Suite struct InstanceLockTests {
    @Test func onlyOneHolderAtATimeAndReleasedWithTheHolder() async throws {
        try await withTemporaryDirectory { base in
            let url = base.appendingPathComponent("bff.lock")
            var first = try InstanceLock.acquire(url)
            #expect(first != nil)
            // flock locks belong to the open file, so a second open in this process conflicts
            // just as another process would.
            #expect(try InstanceLock.acquire(url) == nil)
            first = nil
            #expect(try InstanceLock.acquire(url) != nil)
            _ = first
        }
    }
}

@Suite struct LauncherTests {
    private func launcher(_ base: URL, command: [String], timeout: Duration = .seconds(5)) -> LocalBFFLauncher {
        LocalBFFLauncher(directory: RuntimeDirectory(url: base.appendingPathComponent("rt")), command: command,
                         logFile: "/var/log/test.log", timeout: timeout)
    }

    @Test func reportsAServerThatExitsWithAnError() async throws {
        try await withTemporaryDirectory { base in
            // A long deadline: the exit is seen at the first poll after it, however busy the machine.
            await #expect(throws: BFFAccessError.serverExited(status: 3, log: "/var/log/test.log")) {
                try await launcher(base, command: ["/bin/sh", "-c", "exit 3"], timeout: .seconds(60)).connect()
            }
        }
    }

    @Test func reportsAServerThatNeverListens() async throws {
        try await withTemporaryDirectory { base in
            await #expect(throws: BFFAccessError.notListening(seconds: 1, log: "/var/log/test.log")) {
                try await launcher(base, command: ["/bin/sleep", "5"], timeout: .seconds(1)).connect()
            }
        }
    }

    @Test func reportsACommandThatCannotRun() async throws {
        try await withTemporaryDirectory { base in
            await #expect(throws: BFFAccessError.spawnFailed("/nonexistent/termcanvas", errno: ENOENT)) {
                try await launcher(base, command: ["/nonexistent/termcanvas", "serve"]).connect()
            }
        }
    }

    /// The server outlives the dashboard: a descriptor the dashboard has open without
    /// close-on-exec (a library's socket, a pipe another thread is making) stays out of it.
    @Test func theServerHoldsNoneOfTheDashboardsDescriptors() async throws {
        try await withTemporaryDirectory { base in
            var made: [Int32] = [-1, -1]
            try #require(pipe(&made) == 0)
            // Numbered above what the shell below uses for itself (dash keeps a copy of its
            // output at 10 while a redirected loop runs).
            let ends = made.map { fcntl($0, F_DUPFD, 100) }
            made.forEach { close($0) }
            defer { ends.forEach { close($0) } }
            try #require(ends.allSatisfy { $0 >= 100 })
            let listing = base.appendingPathComponent("held").path
            let check = "for fd in \(ends[0]) \(ends[1]); do [ -e /proc/$$/fd/$fd ] && echo $fd; done > \(listing); exit 3"
            await #expect(throws: BFFAccessError.serverExited(status: 3, log: "/var/log/test.log")) {
                try await launcher(base, command: ["/bin/sh", "-c", check], timeout: .seconds(60)).connect()
            }
            let held = try String(contentsOfFile: listing, encoding: .utf8)
            #expect(held.isEmpty, "the server holds the dashboard's \(held)")
        }
    }

    @Test func nothingRunsInAFreshDirectory() async throws {
        try await withTemporaryDirectory { base in
            let launcher = launcher(base, command: ["/bin/true"])
            try launcher.directory.prepare()
            #expect(try launcher.running() == nil)
        }
    }
}
