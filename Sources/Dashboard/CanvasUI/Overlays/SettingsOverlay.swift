import CanvasCore

/// The focused widget's settings (arrange mode `s`): Enter moves the highlighted one to its
/// next choice.
public struct SettingsOverlay: Overlay, Equatable {
    public private(set) var selected = 0

    public init() {}

    public func hints(_ context: OverlayContext) -> [KeyHint] { OverlayBox.listHints }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        guard let focused = context.focused else { return [.close] }
        let settings = focused.settings
        switch key.code {
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(max(0, settings.count - 1), selected + 1)
        case .enter, .char(" "), .right:
            guard settings.indices.contains(selected) else { return [] }
            return [.cycleSetting(focused.id, key: settings[selected].key)]
        case .escape, .char("q"), .char("s"): return [.close]
        default: break
        }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let settings = context.focused?.settings ?? []
        let lines = settings.isEmpty
            ? [OverlayLine("This widget has no settings.", .muted)]
            : settings.enumerated().map { index, setting in
                OverlayLine("\(setting.label): \(setting.value)", index == selected ? .selection : .overlay)
            }
        OverlayBox.draw(title: "Settings", lines: lines + [OverlayLine("Enter changes the highlighted setting.", .muted)],
                        into: &buffer, context)
    }
}
