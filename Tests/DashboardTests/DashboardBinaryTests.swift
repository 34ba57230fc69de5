import Foundation
import TestSupport
import Testing

/// What the dashboard's binary carries (issue 43: its peers are C programs). GRDB and Yams are
/// the server's: the dashboard keeps its layouts and cache through `SQLiteDatabase` and reads
/// YAML through `YAMLDocuments`, so neither may come back by a dependency.
struct DashboardBinaryTests {
    /// Symbols the binary defines or uses, by name (`nm`, mangled).
    static func symbols() async throws -> String {
        let result = try await Command.run(["nm", Products.termcanvas.path])
        try #require(result.status == 0, "nm could not read \(Products.termcanvas.path)")
        return result.output
    }

    @Test func theDashboardLinksNeitherGRDBNorYams() async throws {
        let symbols = try await Self.symbols()
        #expect(symbols.contains("14SQLiteDatabase"), "the symbols were not read: the dashboard's own SQLite layer is missing")
        for (module, mangled) in [("GRDB", "4GRDB"), ("Yams", "4Yams")] {
            let found = symbols.split(separator: "\n").filter { $0.contains(mangled) }
            #expect(found.isEmpty, "the dashboard links \(module): \(found.prefix(3).joined(separator: "; "))")
        }
    }
}
