import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Read-only databases")
struct ReadOnlyTests {
    /// Writes fail with `.readOnly`, reads still work, and the file keeps its data.
    @Test func writesToAReadOnlyDatabaseFailClearly() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
            try store.setPreference("theme", to: "dark")
        }

        let store: LayoutStore
        let isRoot = getuid() == 0
        if isRoot {
            // Permissions are not enforced for root: open the file read-only instead.
            var configuration = Configuration()
            configuration.readonly = true
            store = try LayoutStore(DatabasePool(path: scratch.database.path, configuration: configuration),
                                    path: scratch.database.path)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: scratch.database.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: scratch.directory.path)
            do {
                store = try LayoutStore.open(at: scratch.database).store
            } catch let error as LayoutStoreError {
                Self.restorePermissions(scratch)
                #expect(error == .readOnly(path: scratch.database.path))
                return
            }
        }
        // Writable again however the test ends, so the temporary directory can be removed.
        defer { if !isRoot { Self.restorePermissions(scratch) } }

        let readOnly = LayoutStoreError.readOnly(path: scratch.database.path)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try store.preference("theme") == "dark")
        #expect(throws: readOnly) { try store.save(Sample.swapped) }
        #expect(throws: readOnly) { try store.recordStep("swap", layout: Sample.swapped) }
        #expect(throws: readOnly) { try store.setPreference("theme", to: "light") }
        #expect(throws: readOnly) { try store.delete(named: Sample.name) }
        #expect(readOnly.description.contains("read-only"))

        if !isRoot { Self.restorePermissions(scratch) }
        let writable = try openStore(scratch.database)
        #expect(try writable.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try writable.preference("theme") == "dark")
        #expect(try writable.history(named: Sample.name).count == 1)
    }

    static func restorePermissions(_ scratch: Scratch) {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.directory.path)
        try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.database.path)
    }
}
