import CanvasCore
import CanvasStyle

/// The theme picker (Ctrl-T): the highlighted theme is previewed live; Esc goes back.
public struct ThemePicker: Overlay, Hashable, Sendable {
    public var names: [String]?
    public var selected = 0
    /// The theme in use when the picker opened, restored on Esc.
    public let original: Theme

    public init(original: Theme) {
        self.original = original
    }

    public var badge: String? { " OPEN " }

    public func hints(_ context: OverlayContext) -> [KeyHint] { OverlayBox.listHints }

    public mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect] {
        switch message {
        case .themesListed(let listed):
            names = listed
            selected = listed.firstIndex(of: context.theme.name) ?? 0
        case .themeLoaded(let loaded):
            // Previews load concurrently and may arrive out of order: show only the highlighted one.
            if let names, names.indices.contains(selected), names[selected] == loaded.name { return [.showTheme(loaded)] }
        default: break
        }
        return []
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        let names = names ?? []
        switch key.code {
        case .escape: return [.showTheme(original), .close]
        case .enter: return [.keepTheme, .close]
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(max(0, names.count - 1), selected + 1)
        default: return []
        }
        return names.indices.contains(selected) ? [.loadTheme(names[selected], keep: false)] : []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let lines = (names ?? []).enumerated().map { index, name in OverlayLine(name, index == selected ? .selection : .overlay) }
        OverlayBox.draw(title: "Theme", lines: (names == nil ? [OverlayLine("Loading…", .muted)] : lines)
            + [OverlayLine("↑↓ preview, Enter keeps, Esc goes back.", .muted)], into: &buffer, context)
    }
}
