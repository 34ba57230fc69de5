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
        let presetNames = Set(presets.layoutNames())
        let stored = try store.summaries().map { item in
            // A preset's own row (its panes' state) is the preset.
            guard try presetRow(item.name) != .ownState else {
                return LayoutSummary(name: item.name, paneCount: item.paneCount, updatedAt: nil, isPreset: true)
            }
            return LayoutSummary(name: item.name, paneCount: item.paneCount, updatedAt: item.updatedAt, isPreset: false,
                                 changedFrom: Self.changedPreset(item.name, presets: presetNames))
        }
        let storedNames = Set(stored.map(\.name))
        let sharedItems = try store.sharedCopyNames(server: server).filter { !storedNames.contains($0) }.compactMap { name in
            (try? store.sharedCopy(named: name, server: server)).flatMap { $0 }.map(Self.summary)
        }
        let taken = storedNames.union(sharedItems.map(\.name))
        let presetItems = presetNames.filter { !taken.contains($0) }.map { name in
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

    func load(_ name: String) async throws -> LoadedLayout {
        if let stored = try store.load(named: name) {
            return LoadedLayout(try CanvasManager(layout: stored.layout, history: stored.history), preset: try presetOrigin(of: name))
        }
        return LoadedLayout(try CanvasManager(layout: try preset(name)), preset: try presetOrigin(of: name))
    }

    func restorePreset(_ preset: String) async throws -> LoadedLayout {
        // A layout stored under the preset's own name (before presets stayed presets) keeps
        // what it holds under the name changes are kept under.
        if try presetRow(preset) == .userLayout { try store.rename(preset, to: try changedName(of: preset)) }
        return try await load(preset)
    }

    /// How layout `name` stands to a preset: the preset as its file has it (with its panes'
    /// state if it was used), or a layout of the user's that keeps its changes.
    func presetOrigin(of name: String) throws -> PresetOrigin? {
        switch try presetRow(name) {
        case .ownState:
            return PresetOrigin(preset: name, changesKeptAs: try changedName(of: name))
        case .none where try store.sharedCopy(named: name, server: server) == nil:
            return PresetOrigin(preset: name, changesKeptAs: try changedName(of: name))
        case .userLayout:
            return PresetOrigin(preset: name, changesKeptAs: nil)
        case .notAPreset:
            guard try store.layout(named: name) != nil else { return nil }
            return Self.changedPreset(name, presets: Set(presets.layoutNames())).map { PresetOrigin(preset: $0, changesKeptAs: nil) }
        case .none:
            return nil
        }
    }

    /// What the store holds under a preset's name.
    enum PresetRow: Equatable {
        /// `name` is no preset's.
        case notAPreset
        /// Nothing: the preset has not been used here.
        case none
        /// The preset's own row: its arrangement as the file has it, holding its panes' state
        /// (a day chosen, a micro-app's count), which a preset keeps as any layout does.
        case ownState
        /// A layout of the user's stored under the preset's name before presets stayed presets.
        case userLayout
    }

    /// - Parameter file: The preset's file as read already, if it was.
    func presetRow(_ name: String, file: LayoutData? = nil) throws -> PresetRow {
        guard let file = try file ?? presets.layout(named: name) else { return .notAPreset }
        guard let stored = try store.layout(named: name) else { return .none }
        return stored.hasSameArrangement(as: file) ? .ownState : .userLayout
    }

    /// The preset a stored layout keeps the changes of: `default` for `default (changed)`, or
    /// for a layout stored as `default` before presets stayed presets.
    private static func changedPreset(_ name: String, presets: Set<String>) -> String? {
        if presets.contains(name) { return name }
        return PresetOrigin.preset(changedAs: name).flatMap { presets.contains($0) ? $0 : nil }
    }

    /// The first of `default (changed)`, `default (changed 2)`, … no layout here has.
    private func changedName(of preset: String) throws -> String {
        let shared = Set(try store.sharedCopyNames(server: server))
        return try PresetOrigin.changedName(of: preset) { try store.layout(named: $0) != nil || shared.contains($0) }
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

    @discardableResult
    func save(_ layout: LayoutData) async throws -> String {
        var kept = layout
        // A shared canvas is kept as its copy (`keep`), which the host writes as it changes.
        if try store.layout(named: layout.name) == nil, try store.sharedCopy(named: layout.name, server: server) != nil {
            try store.setPreference(Self.layoutPreference, to: layout.name)
            return layout.name
        }
        // A preset stays as its file has it: in its own arrangement it keeps its panes' state
        // under its name (the host renames it when its settings change, `HostState.presetSettings`,
        // as widgets fill in settings the file leaves out); arranged otherwise, under its changed name.
        if let file = try presets.layout(named: layout.name), !layout.hasSameArrangement(as: file),
           try presetRow(layout.name, file: file) != .userLayout {
            kept.name = try changedName(of: layout.name)
        }
        try store.save(kept)
        try store.setPreference(Self.layoutPreference, to: kept.name)
        return kept.name
    }

    func save(_ layout: LayoutData, continuingHistoryOf source: String) async throws {
        if [.none, .ownState].contains(try presetRow(layout.name)) { throw PresetNameTaken(name: layout.name) }
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

/// Saving under a preset's name would hide the preset.
struct PresetNameTaken: Error, CustomStringConvertible {
    let name: String

    var description: String { "'\(name)' is a preset and stays as its file has it: save under a name of your own" }
}

struct ThemeNotFound: Error, CustomStringConvertible {
    let name: String
    let available: [String]

    var description: String { "no theme named '\(name)'; available: \(available.joined(separator: ", "))" }
}
