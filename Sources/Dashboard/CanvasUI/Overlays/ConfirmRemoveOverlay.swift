import CanvasCore
import CanvasStyle

/// Asks before removing a pane (arrange mode `x`).
public struct ConfirmRemoveOverlay: Overlay, Equatable {
    public let pane: PaneID
    /// The pane's title, with its number.
    public let title: String

    public init(pane: PaneID, title: String) {
        self.pane = pane
        self.title = title
    }

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        [KeyHint(keys: "y", action: "remove"), KeyHint(keys: "n", action: "keep")]
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        guard key == .char("y") || key == .char("Y") else { return [.close, .notice(.info("Kept the pane"))] }
        return [.close, .removePane(pane)]
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        OverlayBox.draw(title: "Remove pane", lines: [
            OverlayLine("Remove pane \(title)?"),
            OverlayLine("y removes it" + (context.commands.label(for: .undo).map { " (\($0) undoes)" } ?? "") + ", any other key keeps it.",
                        .muted),
        ], into: &buffer, context)
    }
}
