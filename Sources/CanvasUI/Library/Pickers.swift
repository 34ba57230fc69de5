import CanvasCore

/// The layout picker (Ctrl-O): stored layouts and presets, a filter, and actions on the highlighted one.
public struct LayoutPicker: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case browsing
        /// Typing into the filter (`/`, or any other character).
        case filtering
        case confirmingDelete(String)
        case renaming(String, TextField)
    }

    /// nil until the list has arrived.
    public var items: [LayoutSummary]?
    public var filter = TextField(limit: 64)
    public var selected = 0
    public var action = Action.browsing

    public init() {}

    /// The items whose names contain the filter, case-insensitively.
    public var visible: [LayoutSummary] {
        let needle = filter.text.lowercased()
        return (items ?? []).filter { needle.isEmpty || $0.name.lowercased().contains(needle) }
    }

    public var highlighted: LayoutSummary? {
        let list = visible
        return list.indices.contains(selected) ? list[selected] : nil
    }

    mutating func move(by step: Int) {
        selected = min(max(0, selected + step), max(0, visible.count - 1))
    }
}

/// The theme picker (Ctrl-T): the highlighted theme is previewed live; Esc goes back.
public struct ThemePicker: Hashable, Sendable {
    public var names: [String]?
    public var selected = 0
    /// The theme in use when the picker opened, restored on Esc.
    public let original: Theme

    public init(original: Theme) {
        self.original = original
    }
}
