/// Modifier keys held with a key.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: 1)
    public static let alt = Modifiers(rawValue: 2)
    public static let ctrl = Modifiers(rawValue: 4)
}

/// A key without modifiers.
public enum KeyCode: Hashable, Sendable {
    case char(Character)
    case enter, tab, backTab, escape, backspace, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
}

/// A key press as the terminal decoded it, e.g. Ctrl-E is `.char("e")` with `.ctrl`.
public struct Key: Hashable, Sendable, CustomStringConvertible {
    public var code: KeyCode
    public var modifiers: Modifiers

    public init(_ code: KeyCode, _ modifiers: Modifiers = []) {
        self.code = code
        self.modifiers = modifiers
    }

    public static func char(_ character: Character, _ modifiers: Modifiers = []) -> Key {
        Key(.char(character), modifiers)
    }

    public static func ctrl(_ character: Character) -> Key { Key(.char(character), .ctrl) }
    public static func alt(_ code: KeyCode) -> Key { Key(code, .alt) }
    public static func shift(_ code: KeyCode) -> Key { Key(code, .shift) }

    public static let enter = Key(.enter)
    public static let tab = Key(.tab)
    public static let backTab = Key(.backTab)
    public static let escape = Key(.escape)
    public static let up = Key(.up)
    public static let down = Key(.down)
    public static let left = Key(.left)
    public static let right = Key(.right)

    /// The printable character typed, when this is plain text input.
    public var text: Character? {
        guard case .char(let c) = code, modifiers.isDisjoint(with: [.ctrl, .alt]) else { return nil }
        return c
    }

    public var description: String {
        var prefix = ""
        if modifiers.contains(.ctrl) { prefix += "Ctrl-" }
        if modifiers.contains(.alt) { prefix += "Alt+" }
        if modifiers.contains(.shift) { prefix += "Shift+" }
        let name: String = switch code {
        case .char(" "): "Space"
        case .char(let c): modifiers.contains(.ctrl) ? c.uppercased() : String(c)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .insert: "Insert"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        }
        return prefix + name
    }
}
