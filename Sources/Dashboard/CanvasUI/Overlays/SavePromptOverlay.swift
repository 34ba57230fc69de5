import CanvasCore
import PlainText

/// Asks for a name to save the layout under (Ctrl-S), the current one offered, selected: typing
/// replaces it, a cursor key keeps it to edit.
public struct SavePromptOverlay: Overlay, Equatable {
    public var capturesText: Bool { true }
    public private(set) var field: TextField

    public init(name: String) {
        field = TextField(name, limit: 64, selected: true)
    }

    public var badge: String? { " SAVE " }

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        [KeyHint(keys: "Enter", action: "save"), KeyHint(keys: "Esc", action: "cancel")]
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        switch key.code {
        case .escape: return [.close]
        case .enter:
            let name = field.text.trimmingWhitespace()
            return name.isEmpty ? [] : [.close, .saveLayout(as: name)]
        default:
            _ = field.edit(key)
            return []
        }
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        OverlayBox.draw(title: "Save layout", lines: [
            .field("Name: ", field),
            OverlayLine("Type a name, or ← → to edit this one. Enter saves, Esc cancels.", .muted),
        ], into: &buffer, context)
    }
}
