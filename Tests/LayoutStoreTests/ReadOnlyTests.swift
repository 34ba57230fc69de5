import CanvasCore
import Foundation
import GRDB
import SQLiteDatabase
@testable import LayoutStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Read-only databases")
struct ReadOnlyTests {
    /// What the product made of a database file it may read but not write.
    struct Outcome: Sendable {
        /// Whether the thread could open the file for writing itself (it must not: else the
        /// condition is not real).
        var fileOpensForWriting = true
        /// What `LayoutStore.open` threw, if it threw.
        var openError: String?
        var openErrorIsReadOnly = false
        var loaded: LayoutData?
        var theme: String?
        /// What each write threw, by write, when the store opened.
        var writes: [String: String] = [:]
        var writesAreReadOnly: [String: Bool] = [:]
    }

    /// The user's own database, made read-only (file 0444, directory 0555): the store reports it
    /// as read-only, from `open` or from every write, and reads still work where it opens.
    ///
    /// Root ignores file modes, so as root the product runs on a thread of its own whose
    /// file-system user and group are `nobody`, who then owns the files: the kernel checks every
    /// open, create and chmod of that thread as it would for a user who is not root.
    @Test func aReadOnlyDatabaseIsReportedAsReadOnly() async throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
            try store.setPreference("theme", to: "dark")
        }
        let path = scratch.database.path
        try Self.makeReadOnly(scratch)
        let outcome = try await Self.asAnotherUser {
            var outcome = Outcome()
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            outcome.fileOpensForWriting = fd >= 0
            if fd >= 0 { close(fd) }
            let store: LayoutStore
            do {
                store = try LayoutStore.open(at: URL(fileURLWithPath: path)).store
            } catch {
                outcome.openError = "\(type(of: error)): \(error)"
                outcome.openErrorIsReadOnly = error as? LayoutStoreError == .readOnly(path: path)
                return outcome
            }
            outcome.loaded = try? store.load(named: Sample.name)?.layout
            outcome.theme = try? store.preference("theme")
            let writes: [(String, () throws -> Void)] = [
                ("save", { try store.save(Sample.swapped) }),
                ("recordStep", { try store.recordStep("swap", layout: Sample.swapped) }),
                ("setPreference", { try store.setPreference("theme", to: "light") }),
                ("delete", { try store.delete(named: Sample.name) }),
            ]
            for (name, write) in writes {
                do {
                    try write()
                    outcome.writes[name] = "succeeded"
                } catch {
                    outcome.writes[name] = "\(error)"
                    outcome.writesAreReadOnly[name] = error as? LayoutStoreError == .readOnly(path: path)
                }
            }
            return outcome
        }
        Self.restore(scratch)

        #expect(!outcome.fileOpensForWriting, "the file must be read-only to the code under test")
        if let error = outcome.openError {
            // A file that cannot be opened for writing is reported as read-only, nothing else.
            #expect(outcome.openErrorIsReadOnly, "open threw \(error)")
        } else {
            #expect(outcome.loaded == Sample.planner)
            #expect(outcome.theme == "dark")
            for name in ["save", "recordStep", "setPreference", "delete"] {
                #expect(outcome.writesAreReadOnly[name] == true, "\(name): \(outcome.writes[name] ?? "-")")
            }
        }
        #expect(LayoutStoreError.readOnly(path: path).description.contains("read-only"))

        // Nothing was changed: writable again, the file has what it had.
        let writable = try openStore(scratch.database)
        #expect(try writable.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try writable.preference("theme") == "dark")
        #expect(try writable.history(named: Sample.name).count == 1)
    }

    /// The mapping itself, with the real SQLITE_READONLY of a connection SQLite opened read-only:
    /// writes fail with `.readOnly`, reads still work, and the file keeps its data.
    @Test func writesOnAReadOnlyConnectionFailClearly() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
            try store.setPreference("theme", to: "dark")
        }
        let store = try LayoutStore(SQLiteDatabase.DatabaseQueue(path: scratch.database.path, readOnly: true),
                                    path: scratch.database.path)
        let readOnly = LayoutStoreError.readOnly(path: scratch.database.path)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try store.preference("theme") == "dark")
        #expect(throws: readOnly) { try store.save(Sample.swapped) }
        #expect(throws: readOnly) { try store.recordStep("swap", layout: Sample.swapped) }
        #expect(throws: readOnly) { try store.setPreference("theme", to: "light") }
        #expect(throws: readOnly) { try store.delete(named: Sample.name) }

        let writable = try openStore(scratch.database)
        #expect(try writable.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try writable.history(named: Sample.name).count == 1)
    }

    // MARK: Helpers

    /// The user id `asAnotherUser` takes on as root (`nobody`).
    static let nobody: UInt32 = 65534

    /// File 0444 and directory 0555; as root, owned by `nobody` too.
    static func makeReadOnly(_ scratch: Scratch) throws {
        let files = [scratch.database.path, scratch.directory.path]
            + ["-wal", "-shm"].map { scratch.database.path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        if getuid() == 0 {
            for file in files { #expect(chown(file, nobody, nobody) == 0, "chown \(file)") }
        }
        for file in files.dropFirst(2) { try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: scratch.database.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: scratch.directory.path)
    }

    /// Writable again and the test's own, so the test can look and the directory can be removed.
    static func restore(_ scratch: Scratch) {
        let own = getuid(), group = getgid()
        let files = [scratch.directory.path] + ((try? scratch.files()) ?? []).map { scratch.directory.appendingPathComponent($0).path }
        for file in files {
            _ = chown(file, own, group)
            _ = chmod(file, file == scratch.directory.path ? 0o700 : 0o600)
        }
    }

    /// Runs `body` on a thread of its own, which as root has `nobody`'s file-system ids (and so,
    /// by the kernel's rule for that change, none of root's file capabilities). Only that thread
    /// changes; it ends with `body`. Not root: the test's own user is already bound by modes.
    static func asAnotherUser<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                if getuid() == 0 {
                    guard let setfsuid = fileSystemIDSetter("setfsuid"), let setfsgid = fileSystemIDSetter("setfsgid") else {
                        continuation.resume(throwing: Unavailable(description: "setfsuid/setfsgid not found"))
                        return
                    }
                    _ = setfsgid(nobody)
                    _ = setfsuid(nobody)
                    // Each returns the id it replaced; asking to set an invalid one only reports the current.
                    guard setfsuid(UInt32.max) == nobody, setfsgid(UInt32.max) == nobody else {
                        continuation.resume(throwing: Unavailable(description: "could not take on nobody's file-system ids"))
                        return
                    }
                }
                continuation.resume(with: Result { try body() })
            }
            thread.start()
        }
    }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Linux's `setfsuid` / `setfsgid` (glibc has them; Swift's Glibc module does not import them).
    private static func fileSystemIDSetter(_ name: String) -> (@convention(c) (UInt32) -> Int32)? {
        #if os(Linux)
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UInt32) -> Int32).self)
        #else
        return nil
        #endif
    }
}
