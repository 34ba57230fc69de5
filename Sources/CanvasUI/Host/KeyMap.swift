/// One key and what it does, as the status bar and the help overlay show it.
public struct KeyHint: Hashable, Sendable {
    public let keys: String
    public let action: String
}

/// The default key map as the status bar and the help overlay describe it; the bindings
/// themselves are in `CanvasHost+Input.swift` and `CanvasHost+Library.swift`.
public enum KeyMap {
    public static let normal: [KeyHint] = [
        KeyHint(keys: "Tab", action: "focus"), KeyHint(keys: "Alt+←↑↓→", action: "focus dir"),
        KeyHint(keys: "^E", action: "arrange"), KeyHint(keys: "?", action: "help"), KeyHint(keys: "q", action: "quit"),
    ]

    public static let arrange: [KeyHint] = [
        KeyHint(keys: "←↑↓→", action: "move"), KeyHint(keys: "Shift+←↑↓→", action: "resize"),
        KeyHint(keys: "Tab", action: "next"), KeyHint(keys: "a", action: "add"), KeyHint(keys: "x", action: "remove"),
        KeyHint(keys: "s", action: "settings"), KeyHint(keys: "u", action: "undo"), KeyHint(keys: "^R", action: "redo"),
        KeyHint(keys: "Enter", action: "done"),
    ]

    public static let overlay: [KeyHint] = [
        KeyHint(keys: "↑↓", action: "choose"), KeyHint(keys: "Enter", action: "select"), KeyHint(keys: "Esc", action: "close"),
    ]

    /// The help overlay's sections: a heading and its keys.
    public static let help: [(heading: String, keys: [KeyHint])] = [
        ("Everywhere", [
            KeyHint(keys: "Tab / Shift-Tab", action: "focus next / previous pane"),
            KeyHint(keys: "Alt+←↑↓→", action: "focus the pane in that direction"),
            KeyHint(keys: "Alt+1 … Alt+9", action: "focus pane N (its number is in its title)"),
            KeyHint(keys: "Mouse", action: "click focuses a pane, the wheel scrolls it"),
            KeyHint(keys: "Ctrl-S", action: "save the layout under a name"),
            KeyHint(keys: "Ctrl-O", action: "open a layout (filter, load, d delete, r rename)"),
            KeyHint(keys: "Ctrl-T", action: "choose a theme (live preview)"),
            KeyHint(keys: "? or F1", action: "this help"),
            KeyHint(keys: "q / Ctrl-Q", action: "quit (q only when not typing)"),
        ]),
        ("Arrange mode (Ctrl-E)", [
            KeyHint(keys: "←↑↓→", action: "move the pane one grid unit (swaps with a pane in the way)"),
            KeyHint(keys: "Shift+→ / Shift+↓", action: "grow right / down (shrinks neighbours)"),
            KeyHint(keys: "Shift+← / Shift+↑", action: "shrink from the right / bottom"),
            KeyHint(keys: "a", action: "add a widget from the catalog"),
            KeyHint(keys: "x", action: "remove the focused pane (asks first)"),
            KeyHint(keys: "s", action: "settings of the focused widget"),
            KeyHint(keys: "u / Ctrl-R", action: "undo / redo"),
            KeyHint(keys: "Enter or Esc", action: "back to normal mode"),
        ]),
    ]
}
