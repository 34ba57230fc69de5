import Foundation
import Testing

/// The README's module table is the map of the code, and this holds the code to it: each target
/// imports only what its row lists, each row keeps to the layer rule, and every target in
/// `Sources/<layer>/<target>` has a row.
@Suite("The README's module table")
struct ModuleTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The layers each layer may import, first-party targets only.
    static let allowedLayers: [String: Set<String>] = [
        "Core": ["Core"],
        "CShims": [],
        "Edges": ["Core", "CShims", "Edges"],
        "AppHost": ["Core", "CShims", "Edges", "AppHost"],
        "Dashboard": ["Core", "CShims", "Edges", "AppHost", "Dashboard"],
        "Server": ["Core", "CShims", "Edges", "Server"],
        "Testing": ["Core", "CShims", "Edges", "AppHost", "Dashboard", "Server", "Testing"],
        "Bench": ["Core", "CShims", "Edges", "AppHost", "Dashboard", "Bench"],
    ]

    /// Modules of the system every target may use.
    static let system: Set<String> = ["Foundation", "FoundationEssentials", "FoundationXML", "Glibc", "Darwin", "Musl", "Dispatch", "Synchronization"]

    struct Row {
        let layer: String
        let target: String
        let mayImport: Set<String>
    }

    /// The table's rows, read from between its markers in README.md.
    static func rows() throws -> [Row] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "<!-- module-table"), let end = readme.range(of: "<!-- /module-table -->") else {
            Issue.record("README.md has no module table between <!-- module-table --> markers")
            return []
        }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6, cells[2].hasPrefix("`") else { return nil }
            let names = cells[4] == "—" ? [] : cells[4].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            return Row(layer: cells[1], target: cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")), mayImport: Set(names))
        }
    }

    /// Each target's directory, by name, with its layer: `Sources/<layer>/<target>`.
    static func targets() throws -> [String: (layer: String, directory: URL)] {
        let sources = root.appendingPathComponent("Sources")
        var found: [String: (layer: String, directory: URL)] = [:]
        for layer in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let layerURL = sources.appendingPathComponent(layer)
            for target in try FileManager.default.contentsOfDirectory(atPath: layerURL.path) {
                found[target] = (layer, layerURL.appendingPathComponent(target))
            }
        }
        return found
    }

    /// The modules a target's Swift files import.
    static func imports(under directory: URL) throws -> Set<String> {
        // Attributes and an access level may come first (`internal import CNcursesw` was missed).
        let pattern = /^(?:@(?:preconcurrency|_exported|testable) )*(?:(?:public|package|internal|private|fileprivate) )?import (?:struct |enum |class |protocol |func |typealias |var |let )?([A-Za-z_][A-Za-z0-9_]*)/
            .anchorsMatchLineEndings()
        var modules: Set<String> = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) { modules.insert(String(match.1)) }
        }
        return modules
    }

    /// Each target's declared dependencies in Package.swift: the targets it names and the products
    /// it takes from packages (a product and its module share a name).
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = /\.(?:target|executableTarget|testTarget)\(\s*name: "([A-Za-z0-9_-]+)",\s*(?:dependencies: \[(.*?)\],\s*)?path:/
            .dotMatchesNewlines()
        let name = /(?:\.product\(name: )?"([A-Za-z0-9_-]+)"/
        var declared: [String: Set<String>] = [:]
        for match in manifest.matches(of: target) {
            let names = match.2.map { list in list.matches(of: name).map { String($0.1) } } ?? []
            declared[String(match.1)] = Set(names)
        }
        return declared
    }

    @Test func everyTargetImportsOnlyWhatPackageSwiftDeclares() throws {
        let declared = try Self.declaredDependencies()
        let targets = try Self.targets()
        #expect(declared.count >= targets.count, "Package.swift's targets were not all read: \(declared.count) of \(targets.count)")
        for (name, target) in targets.sorted(by: { $0.key < $1.key }) {
            guard let dependencies = declared[name] else {
                Issue.record("\(name) is in Sources/\(target.layer) but not a target of Package.swift")
                continue
            }
            let undeclared = try Self.imports(under: target.directory).subtracting(Self.system).subtracting(dependencies)
            #expect(undeclared.isEmpty, "\(name) imports \(undeclared.sorted()), which Package.swift does not declare as its dependencies")
        }
    }

    @Test func everyTargetHasARowInItsLayerAndEveryRowATarget() throws {
        let rows = try Self.rows()
        let targets = try Self.targets()
        #expect(!rows.isEmpty)
        #expect(Set(rows.map(\.target)) == Set(targets.keys), "rows and Sources/<layer>/<target> differ")
        for row in rows {
            #expect(Self.allowedLayers[row.layer] != nil, "\(row.target): unknown layer \(row.layer)")
            if let target = targets[row.target] { #expect(target.layer == row.layer, "\(row.target) is in Sources/\(target.layer), its row says \(row.layer)") }
        }
    }

    @Test func everyRowKeepsToTheLayerRule() throws {
        let rows = try Self.rows()
        let layerOf = Dictionary(rows.map { ($0.target, $0.layer) }, uniquingKeysWith: { first, _ in first })
        for row in rows {
            for module in row.mayImport {
                guard let layer = layerOf[module] else { continue }  // a package's module
                #expect(Self.allowedLayers[row.layer]?.contains(layer) == true,
                        "\(row.target) (\(row.layer)) may not import \(module) (\(layer)): dependencies point down")
            }
        }
    }

    @Test func everyTargetImportsOnlyWhatItsRowLists() throws {
        let targets = try Self.targets()
        for row in try Self.rows() {
            guard let target = targets[row.target] else { continue }
            let unlisted = try Self.imports(under: target.directory).subtracting(Self.system).subtracting(row.mayImport)
            #expect(unlisted.isEmpty, "\(row.target) imports \(unlisted.sorted()), which its row in README.md does not list")
        }
    }

    /// The layers whose targets hand the next layer `package` declarations only: nothing of theirs
    /// is a library product, so nothing is `public` (docs/architecture.md).
    static let packageOnlyLayers: Set<String> = ["Server"]

    /// A public type's conformance to a public protocol of another module needs public witnesses:
    /// days and moments as GRDB database values.
    static let publicWitnesses = ["ServerStore/TimeColumns.swift": 4]

    @Test func theServersLayersDeclareNothingPublic() throws {
        // `public` that opens a declaration, after its attributes, not in a comment or a string.
        let declaration = /^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*public\b/.anchorsMatchLineEndings()
        for (name, target) in try Self.targets() where Self.packageOnlyLayers.contains(target.layer) {
            let files = FileManager.default.enumerator(at: target.directory, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                let found = text.matches(of: declaration).count
                let allowed = Self.publicWitnesses["\(name)/\(file.lastPathComponent)"] ?? 0
                #expect(found == allowed, "\(name)/\(file.lastPathComponent) declares \(found) public; a layer hands the next `package` only")
            }
        }
    }
}
