import CanvasCore

/// One key and what it does, as the status bar and the help overlay show it.
public struct KeyHint: Hashable, Sendable {
    public let keys: String
    public let action: String

    public init(keys: String, action: String) {
        self.keys = keys
        self.action = action
    }
}

/// Keys as the status bar shows them, short: `^E`, `Alt+←`, and the four arrows of one
/// modifier as `←↑↓→`. (The help and the palette say `Ctrl-E`.)
enum KeyLabel {
    static func short(_ key: Key) -> String {
        guard key.modifiers == .ctrl, case .char(let character) = key.code else { return key.description }
        return "^" + character.uppercased()
    }

    /// Several keys with one meaning, e.g. the four `Alt+` arrows as `Alt+←↑↓→`.
    static func group(_ keys: [Key]) -> String {
        let arrows: [KeyCode] = [.left, .up, .down, .right]
        if keys.count > 1, let modifiers = keys.first?.modifiers, keys.allSatisfy({ $0.modifiers == modifiers && arrows.contains($0.code) }) {
            let prefix = Key(.up, modifiers).description.dropLast()
            return prefix + arrows.filter { code in keys.contains { $0.code == code } }.map { Key($0).description }.joined()
        }
        return keys.map(short).joined(separator: "/")
    }
}
