import BFFAccess
import CanvasCore
import CanvasFiles
import CanvasStyle
import CanvasUI
import CommandSupport
import LayoutStore

/// The dashboard's layouts and themes: the SQLite store for what the user saved and the copies of
/// shared canvases opened, preset files for the rest.
struct DashboardLibrary: LayoutLibrary {
    static let layoutPreference = "layout"
    static let themePreference = "theme"

    let store: LayoutStore
    let presets: PresetFiles
    /// Fits a theme to the terminal (16 colours, `NO_COLOR`).
    let adaptTheme: @Sendable (Theme) -> Theme
    /// The server (and user) whose shared canvases' copies this library opens
    /// (`Paths.serverKey(for:)`).
    var server = Paths.serverKey(for: nil as Credential?)

    func summaries() async throws -> [LayoutSummary] {
        let stored = try store.summaries()
        let storedNames = Set(stored.map(\.name))
        let sharedItems = try store.sharedCopyNames(server: server).filter { !storedNames.contains($0) }.compactMap { name in
            (try? store.sharedCopy(named: name, server: server)).flatMap { $0 }.map(Self.summary)
        }
        let taken = storedNames.union(sharedItems.map(\.name))
        let presetItems = presets.layoutNames().filter { !taken.contains($0) }.map { name in
            LayoutSummary(name: name, paneCount: (try? presets.layout(named: name))??.panes.count ?? 0,
                          updatedAt: nil, isPreset: true)
        }
        let all: [LayoutSummary] = stored + sharedItems + presetItems
        return all.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    private static func summary(_ copy: SharedCanvasCopy) -> LayoutSummary {
        LayoutSummary(name: copy.name, paneCount: copy.replica.shown.panes.count, updatedAt: nil, isPreset: false,
                      sharing: LayoutSummary.Sharing(canvas: copy.canvas, owner: copy.owner, role: copy.role))
    }

    func layoutNames() async throws -> [String] {
        let names: [String] = try store.summaries().map(\.name) + store.sharedCopyNames(server: server) + presets.layoutNames()
        return Set(names).sorted { $0.lowercased() < $1.lowercased() }
    }

    func load(_ name: String) async throws -> CanvasManager {
        if let stored = try store.load(named: name) {
            return try CanvasManager(layout: stored.layout, history: stored.history)
        }
        return try CanvasManager(layout: try preset(name))
    }

    func history(_ name: String) async throws -> UndoHistory<LayoutData>? {
        try store.undoHistory(named: name)
    }

    /// A saved or preset layout without its history, synchronously: for start-up before the
    /// first frame (the history follows through `history(_:)`) and for the command line.
    func layoutNow(_ name: String) throws -> LayoutData {
        try store.layout(named: name) ?? preset(name)
    }

    private func preset(_ name: String) throws -> LayoutData {
        guard let preset = try presets.layout(named: name) else { throw LayoutStoreError.notFound(name: name) }
        return preset
    }

    func save(_ layout: LayoutData) async throws {
        // A shared canvas is kept as its copy (`keep`), which the host writes as it changes.
        if try store.layout(named: layout.name) == nil, try store.sharedCopy(named: layout.name, server: server) != nil {
            return try store.setPreference(Self.layoutPreference, to: layout.name)
        }
        try store.save(layout)
        try store.setPreference(Self.layoutPreference, to: layout.name)
    }

    func save(_ layout: LayoutData, continuingHistoryOf source: String) async throws {
        try store.save(layout, continuingHistoryOf: source)
        try store.setPreference(Self.layoutPreference, to: layout.name)
    }

    func recordStep(_ step: String, layout: LayoutData, before: LayoutData) async throws {
        // A layout's history starts with how it was before its first step (a preset, a file).
        if try store.layout(named: layout.name) == nil { try store.save(before) }
        try store.recordStep(step, layout: layout)
    }

    func recordUndo(layout: LayoutData) async throws { try store.recordUndo(layout: layout) }
    func recordRedo(layout: LayoutData) async throws { try store.recordRedo(layout: layout) }
    func delete(_ name: String) async throws { try store.delete(named: name) }
    func record(_ times: LoadTimes) async throws { try store.record(times) }
    func rename(_ name: String, to newName: String) async throws { try store.rename(name, to: newName) }

    func sharedCopy(named name: String) async throws -> SharedCanvasCopy? {
        guard try store.layout(named: name) == nil else { return nil }
        return try store.sharedCopy(named: name, server: server)
    }

    func keep(_ copy: SharedCanvasCopy) async throws {
        try store.keep(copy, server: server)
        try store.setPreference(Self.layoutPreference, to: copy.name)
    }

    func themeNames() async -> [String] {
        Array(Set(presets.themeNames() + [Theme.dark.name])).sorted()
    }

    func theme(named name: String) async throws -> Theme {
        adaptTheme(try themeNow(name))
    }

    /// The theme file of that name; the built-in dark theme when no file is found for `dark`.
    /// The theme is named after its file, as the picker lists it and the preference remembers it.
    func themeNow(_ name: String) throws -> Theme {
        if var theme = try presets.theme(named: name) {
            theme.name = name
            return theme
        }
        guard name == Theme.dark.name else {
            throw ThemeNotFound(name: name, available: presets.themeNames())
        }
        return .dark
    }

    func remember(theme name: String) async throws {
        try store.setPreference(Self.themePreference, to: name)
    }
}

struct ThemeNotFound: Error, CustomStringConvertible {
    let name: String
    let available: [String]

    var description: String { "no theme named '\(name)'; available: \(available.joined(separator: ", "))" }
}
