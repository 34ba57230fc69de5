/// Text for the user's terminal outside the screen the dashboard draws (standard error of the
/// commands): by the same rules as everything drawn on screen, `SafeText`'s. Every string a server
/// sent, and every message that may hold one, goes through `safe` before it is printed, so a hostile
/// server cannot set the window title, clear the screen or hide text with escape sequences.
public enum TerminalText {
    /// `text` with each control character (and bidi override, line separator) shown as its
    /// placeholder, e.g. ESC as `␛`.
    public static func safe(_ text: String) -> String { placeholders(text, keepingLines: false) }

    /// As `safe`, keeping line breaks: for text of several lines, such as a script.
    public static func safeLines(_ text: String) -> String { placeholders(text, keepingLines: true) }

    private static func placeholders(_ text: String, keepingLines: Bool) -> String {
        String(text.map { keepingLines && $0 == "\n" ? $0 : SafeText.placeholder(for: $0) ?? $0 })
    }
}
