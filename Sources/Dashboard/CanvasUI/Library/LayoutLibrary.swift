import CanvasCore
import CanvasStyle

/// Where layouts and themes are kept; the host reaches disk only through this, asynchronously.
public protocol LayoutLibrary: Sendable {
    /// Stored layouts and presets, by name.
    func summaries() async throws -> [LayoutSummary]
    /// The names alone of stored layouts and presets, sorted: cheaper than `summaries()`, which
    /// reads every preset file.
    func layoutNames() async throws -> [String]
    /// A stored layout with its undo history, or a preset with a fresh one.
    func load(_ name: String) async throws -> LoadedLayout
    /// The preset `preset` as its file has it; a layout stored under its own name (before
    /// presets stayed presets) is renamed as changes are (`default (changed)`) first.
    func restorePreset(_ preset: String) async throws -> LoadedLayout
    /// The stored undo history of a layout, or nil when it was never saved.
    func history(_ name: String) async throws -> UndoHistory<LayoutData>?
    /// Saves the arrangement and widget state under the layout's name; remembers it as the last
    /// used. A preset in its own arrangement keeps its panes' state under its name and stays the
    /// preset; arranged otherwise, it is kept as `default (changed)`.
    /// - Returns: the name it is kept under.
    @discardableResult
    func save(_ layout: LayoutData) async throws -> String
    /// Saves under a new name, keeping the history of the layout it was arranged as ("save as").
    func save(_ layout: LayoutData, continuingHistoryOf source: String) async throws
    /// Records one arrangement step: `layout` is the result, `before` the arrangement it changed
    /// (the start of the history when the layout was never saved).
    func recordStep(_ step: String, layout: LayoutData, before: LayoutData) async throws
    func recordUndo(layout: LayoutData) async throws
    func recordRedo(layout: LayoutData) async throws
    func delete(_ name: String) async throws
    func rename(_ name: String, to newName: String) async throws
    func themeNames() async -> [String]
    func theme(named name: String) async throws -> Theme
    /// Remembers the chosen theme for the next start.
    func remember(theme name: String) async throws
    /// Keeps how long a start took to show its content, for `termcanvas stats`.
    func record(_ times: LoadTimes) async throws
    /// The copy kept of the shared canvas `name`, when that name opens one (a layout saved
    /// here under the same name opens instead).
    func sharedCopy(named name: String) async throws -> SharedCanvasCopy?
    /// Keeps a shared canvas's copy, for opening it offline and sending its edits later.
    func keep(_ copy: SharedCanvasCopy) async throws
}

/// A layout read from the library, and how it stands to a preset.
public struct LoadedLayout: Sendable {
    public var manager: CanvasManager
    public var preset: PresetOrigin?

    public init(_ manager: CanvasManager, preset: PresetOrigin?) {
        self.manager = manager
        self.preset = preset
    }
}
