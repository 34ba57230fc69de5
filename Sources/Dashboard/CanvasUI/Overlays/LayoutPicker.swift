import CanvasCore
import CanvasStyle
import PlainText

/// The layout picker (Ctrl-O): stored layouts and presets, a filter, and actions on the highlighted one.
///
/// Whatever can be typed goes into the filter, so the actions are on keys that cannot: Ctrl-D
/// deletes (asks first), Ctrl-R renames, Ctrl-P opens the preset a layout was changed from.
/// Enter opens the highlighted layout, filter or not.
public struct LayoutPicker: Overlay, Hashable, Sendable {
    public enum Mode: Hashable, Sendable {
        /// Typing filters; ↑↓ move the highlight.
        case browsing
        case confirmingDelete(String)
        case renaming(String, TextField)
    }

    /// nil until the list has arrived.
    public var items: [LayoutSummary]?
    public var filter = TextField(limit: 64)
    public var selected = 0
    public var mode = Mode.browsing

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

    public var badge: String? { " OPEN " }

    public func hints(_ context: OverlayContext) -> [KeyHint] { OverlayBox.listHints }

    public mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect] {
        switch message {
        case .layoutsListed(let listed):
            items = listed
            selected = visible.firstIndex { $0.name == context.layoutName } ?? 0
        case .shared(_, .listed(let onServer)):
            // The server's layouts this machine has no copy of join the list, in name order.
            guard let known = items else { return [] }
            let names = Set(known.map(\.name))
            let current = highlighted?.name
            items = (known + onServer.filter { !names.contains($0.name) })
                .sorted { $0.name.lowercased() < $1.name.lowercased() }
            selected = visible.firstIndex { $0.name == current } ?? selected
        default:
            break
        }
        return []
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        switch mode {
        case .confirmingDelete(let name):
            mode = .browsing
            guard key == .char("y") || key == .char("Y") else { return [] }
            items?.removeAll { $0.name == name && !$0.isPreset }
            move(by: 0)
            return [.deleteLayout(name)]
        case .renaming(let name, var field):
            switch key.code {
            case .escape: mode = .browsing
            case .enter:
                let newName = field.text.trimmingWhitespace()
                mode = .browsing
                guard !newName.isEmpty, newName != name else { return [] }
                // The store refuses a taken name; refuse it here too, before the current layout is renamed.
                if items?.contains(where: { $0.name == newName && !$0.isPreset }) == true {
                    mode = .renaming(name, field)
                    return [.notice(.error("A layout named '\(newName)' already exists"))]
                }
                items = nil
                return [.renameLayout(name, to: newName), .listLayouts]
            default:
                _ = field.edit(key)
                mode = .renaming(name, field)
            }
        case .browsing:
            return browse(key, context)
        }
        return []
    }

    private mutating func browse(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        switch (key.code, key.modifiers) {
        case (.escape, []):
            // Esc clears a filter first, then closes.
            guard filter.text.isEmpty else {
                filter = TextField(limit: filter.limit)
                selected = visible.firstIndex { $0.name == context.layoutName } ?? 0
                return []
            }
            return [.close]
        case (.up, []): move(by: -1)
        case (.down, []): move(by: 1)
        case (.enter, []):
            guard let item = highlighted else { return [] }
            return [.close, .loadLayout(item.name)]
        case (.char("d"), .ctrl):
            guard let item = highlighted else { return [] }
            guard !item.isPreset else { return [.notice(.info("\(item.name) is a preset file; it cannot be deleted here"))] }
            guard item.sharing == nil else { return [.notice(.info(Self.sharedNotice(item.name)))] }
            guard item.name != context.layoutName else {
                return [.notice(.info("\(item.name) is open; load another layout before deleting it"))]
            }
            mode = .confirmingDelete(item.name)
        case (.char("p"), .ctrl):
            guard let item = highlighted else { return [] }
            guard let preset = item.changedFrom ?? (item.isPreset ? item.name : nil) else {
                return [.notice(.info("\(item.name) was not made from a preset"))]
            }
            return [.close, .restorePreset(preset)]
        case (.char("r"), .ctrl):
            guard let item = highlighted else { return [] }
            guard !item.isPreset else { return [.notice(.info("\(item.name) is a preset file; save it under a name of yours (Ctrl-S) to rename that"))] }
            guard item.sharing == nil else { return [.notice(.info(Self.sharedNotice(item.name)))] }
            mode = .renaming(item.name, TextField(item.name, limit: 64, selected: true))
        default:
            let before = filter.text
            if filter.edit(key), filter.text != before { selected = 0 }
        }
        return []
    }

    /// Why a shared canvas is not deleted or renamed here.
    private static func sharedNotice(_ name: String) -> String {
        "\(name) lives on the server: `termcanvas layout move \(name) --to local` brings it back, `layout unshare` stops sharing it"
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        var lines = [mode == .browsing ? OverlayLine.field("Filter: ", filter, .accent) : OverlayLine("Filter: " + filter.text, .muted)]
        defer { OverlayBox.draw(title: "Layouts", lines: lines, into: &buffer, context) }
        guard items != nil else { lines.append(OverlayLine("Loading…", .muted)); return }
        let visible = visible
        if visible.isEmpty { lines.append(OverlayLine("No layout matches.", .muted)) }
        for (index, item) in visible.enumerated() {
            let current = item.name == context.layoutName ? " (current)" : ""
            let open = item.sharing.flatMap { context.presence[$0.canvas] }.map { $0.isEmpty ? "" : ", open: " + $0.joined(separator: ", ") } ?? ""
            let panes = item.paneCount.map { "\($0) panes" } ?? "not opened here"
            let changed = item.changedFrom.map { $0 == item.name ? ", changed from the preset" : ", changed from preset \($0)" } ?? ""
            let kind = item.isPreset ? "preset" : panes + changed + (item.sharing.map { ", \($0)" } ?? "") + open
            lines.append(OverlayLine("\(item.name)\(current) — \(kind)", index == selected ? .selection : .overlay))
        }
        switch mode {
        case .confirmingDelete(let name):
            lines.append(OverlayLine("Delete \(name)? y deletes, any other key keeps it.", .warning))
        case .renaming(let name, let field):
            lines.append(.field("Rename \(name) to: ", field, .accent))
        case .browsing:
            let preset = highlighted?.changedFrom != nil ? " · ^P the preset" : ""
            lines.append(OverlayLine("Type to filter · Enter load · ^D delete · ^R rename\(preset) · Esc " + (filter.text.isEmpty ? "close" : "clear"), .muted))
        }
    }
}
