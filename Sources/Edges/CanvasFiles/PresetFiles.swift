import CanvasCore
import CanvasStyle
import FoundationEssentials

/// Finds the preset layouts (`layouts/*.yaml`) and themes (`themes/*.yaml`).
///
/// Folders are searched in order, and the first file of a name wins: the user's own under
/// `$XDG_CONFIG_HOME/termcanvas/`, then the ones shipped with TermCanvas (beside the source
/// checkout the binary was built in, or an install prefix's `share/termcanvas`).
public struct PresetFiles: Sendable {
    public let layoutFolders: [URL]
    public let themeFolders: [URL]

    public init(layoutFolders: [URL], themeFolders: [URL]) {
        self.layoutFolders = layoutFolders
        self.themeFolders = themeFolders
    }

    /// The standard search path for a user and the running executable.
    public static func standard(configDirectory: URL, executable: URL) -> PresetFiles {
        let shipped = shippedFolders(executable: executable)
        return PresetFiles(
            layoutFolders: [configDirectory.appendingPathComponent("layouts")] + shipped.map { $0.appendingPathComponent("layouts") },
            themeFolders: [configDirectory.appendingPathComponent("themes")] + shipped.map { $0.appendingPathComponent("themes") }
        )
    }

    /// Where TermCanvas's own files are: the checkout holding `.build/…/termcanvas`, or `PREFIX/share/termcanvas`.
    static func shippedFolders(executable: URL) -> [URL] {
        var folders: [URL] = []
        var directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                folders.append(directory)
                break
            }
            directory = directory.deletingLastPathComponent()
        }
        let prefix = executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(prefix.appendingPathComponent("share/termcanvas"))
        return folders
    }

    /// Preset layout names, each once, sorted.
    public func layoutNames() -> [String] { names(in: layoutFolders) }

    /// Theme names, each once, sorted.
    public func themeNames() -> [String] { names(in: themeFolders) }

    /// The preset layout of that name, or nil when there is none.
    /// - Throws: `FileError` when the file exists but is malformed.
    public func layout(named name: String) throws -> LayoutData? {
        guard let url = file(named: name, in: layoutFolders) else { return nil }
        var layout = try LayoutFile.parse(try TextFile.read(url), file: url.path)
        layout.name = name
        return layout
    }

    /// The theme of that name, or nil when there is none.
    /// - Throws: `FileError` when the file exists but is malformed.
    public func theme(named name: String) throws -> Theme? {
        guard let url = file(named: name, in: themeFolders) else { return nil }
        return try ThemeFile.parse(try TextFile.read(url), file: url.path)
    }

    private func file(named name: String, in folders: [URL]) -> URL? {
        guard !name.contains("/") else { return nil }
        return folders.lazy.map { $0.appendingPathComponent(name + ".yaml") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    private func names(in folders: [URL]) -> [String] {
        let files = folders.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? [] }
        return Set(files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }).sorted()
    }
}
