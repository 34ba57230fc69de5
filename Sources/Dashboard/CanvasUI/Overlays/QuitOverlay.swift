import CanvasCore

/// Quitting: the layout is being saved (`failure` nil, nothing drawn: the status bar says so),
/// or saving it failed and the user chooses between quitting without saving (q) and staying (Esc).
public struct QuitOverlay: Overlay, Equatable {
    public private(set) var failure: String?

    public init(failure: String?) {
        self.failure = failure
    }

    public var badge: String? { " QUIT " }

    /// What quitting would lose must be seen before q is pressed again, however small the terminal.
    public var tooSmallLines: [String]? {
        failure.map { ["Could not save the layout: \($0)", "q again quits without saving, Esc stays"] }
    }

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        guard failure == nil else {
            return [KeyHint(keys: "q", action: "quit without saving"), KeyHint(keys: "Esc", action: "stay")]
        }
        // Only a Ctrl key bound to quit reaches past an overlay.
        let quit = context.commands.label(for: .quit) { $0.modifiers.contains(.ctrl) }
        return [KeyHint(keys: "", action: "saving the layout…")] + (quit.map { [KeyHint(keys: $0, action: "quit once saved")] } ?? [])
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        guard failure != nil else { return [] }
        switch key {
        case .char("q"), .char("Q"): return [.quitWithoutSaving]
        case .escape: return [.stay, .close]
        default: return []
        }
    }

    /// The save quitting asked for failed: now the box asks what to do.
    public mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect] {
        if case .quitSaved(let failure?) = message, self.failure == nil { self.failure = failure }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        guard let failure else { return }
        // Wrapped to the canvas, so a long path is read whole.
        let lines = Self.lines(failure, width: max(20, context.area.width - 6))
        OverlayBox.draw(title: "Layout not saved", lines: lines.enumerated().map { index, text in
            OverlayLine(text, index == lines.count - 1 ? .muted : .error)
        }, into: &buffer, context)
    }

    /// The lines that say why the layout was not saved and what the keys do.
    static func lines(_ failure: String, width: Int) -> [String] {
        TextWrap.lines("Could not save the layout: \(failure)", width: width)
            + [""] + TextWrap.lines("q again quits without saving, Esc stays.", width: width)
    }
}
