import Foundation
import TestSupport
import Testing

/// What the dashboard's binary carries (issue 43: its peers are C programs). It links
/// FoundationEssentials, not Foundation (nor FoundationInternationalization and ICU's 34 MB of
/// data, which Foundation brings); GRDB and Yams are the server's: the dashboard keeps its layouts
/// and cache through `SQLiteDatabase` and reads YAML through `YAMLDocuments`. Nothing may bring
/// them back by a dependency.
struct DashboardBinaryTests {
    /// Symbols the binary defines or uses, by name (`nm`, mangled).
    static func symbols() async throws -> [Substring] {
        let result = try await Command.run(["nm", Products.termcanvas.path])
        try #require(result.status == 0, "nm could not read \(Products.termcanvas.path)")
        return result.output.split(separator: "\n")
    }

    @Test func theDashboardLinksNeitherGRDBNorYams() async throws {
        let symbols = try await Self.symbols()
        #expect(symbols.contains { $0.contains("14SQLiteDatabase") }, "the symbols were not read: the dashboard's own SQLite layer is missing")
        for (module, mangled) in [("GRDB", "4GRDB"), ("Yams", "4Yams")] {
            let found = symbols.filter { $0.contains(mangled) }
            #expect(found.isEmpty, "the dashboard links \(module): \(found.prefix(3).joined(separator: "; "))")
        }
    }

    /// Neither as a library it loads (a debug build) nor as code linked in (a static release build).
    @Test func theDashboardLinksFoundationEssentialsOnlyAndNoICU() async throws {
        let dynamic = try await Command.run(["readelf", "-d", Products.termcanvas.path])
        try #require(dynamic.status == 0)
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!dynamic.output.contains("[\(library)]"), "the dashboard loads \(library)")
        }
        let symbols = try await Self.symbols()
        for (what, mangled) in [("Foundation", "$s10Foundation"), ("FoundationInternationalization", "30FoundationInternationalization"),
                                ("ICU's data", "icudt")] {
            let found = symbols.filter { $0.contains(mangled) }
            #expect(found.isEmpty, "the dashboard links \(what): \(found.prefix(3).joined(separator: "; "))")
        }
    }

    /// The release link places the functions `hot-functions.order` names first (Package.swift,
    /// `dashboardLinking`). A list gone stale names functions that no longer exist: the code the
    /// start runs would be scattered again, and memory grow by megabytes, with nothing failing.
    /// Of its functions in the dashboard's own modules, most must still be in the binary (the
    /// debug build lacks the release build's specializations: 87 % when the list was written).
    @Test func theReleaseLinksOrderOfFunctionsNamesFunctionsThatExist() async throws {
        let path = Repo.root.appendingPathComponent("Sources/Dashboard/termcanvas/hot-functions.order").path
        let listed = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        // The modules whose every function the link can place (`dashboardOnlyTargets`), mangled.
        let modules = ["8MainLoop", "8CanvasUI", "7Widgets", "10termcanvas", "15NcursesTerminal", "10HTTPClient", "10ServerSync",
                       "11LayoutStore", "12MicroAppHost"]
        let ours = listed.filter { name in modules.contains { name.hasPrefix("$s" + $0) } }
        #expect(ours.count >= 500, "\(path) lists \(ours.count) of the dashboard's functions: run scripts/order-functions")
        let defined = Set(try await Self.symbols().compactMap { $0.split(separator: " ").last })
        let found = ours.filter { defined.contains($0) }.count
        #expect(found * 10 >= ours.count * 7, "\(found) of the \(ours.count) functions \(path) names are in the dashboard: run scripts/order-functions")
    }
}
