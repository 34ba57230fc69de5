extension Key {
    /// The key as key maps and micro-apps name it: modifiers first (`ctrl+`, `alt+`, `shift+`),
    /// then the key: a character as typed (`a`, `A`, `?`), or `space`, `enter`, `tab`, `backtab`,
    /// `escape`, `backspace`, `delete`, `insert`, `up`, `down`, `left`, `right`, `home`, `end`,
    /// `pageup`, `pagedown`, `f1`…`f12`.
    public var name: String {
        var prefix = ""
        if modifiers.contains(.ctrl) { prefix += "ctrl+" }
        if modifiers.contains(.alt) { prefix += "alt+" }
        if modifiers.contains(.shift) { prefix += "shift+" }
        let key = switch code {
        case .char(" "): "space"
        case .char(let character): modifiers.contains(.ctrl) ? character.lowercased() : String(character)
        case .enter: "enter"
        case .tab: "tab"
        case .backTab: "backtab"
        case .escape: "escape"
        case .backspace: "backspace"
        case .delete: "delete"
        case .insert: "insert"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pageup"
        case .pageDown: "pagedown"
        case .function(let number): "f\(number)"
        }
        return prefix + key
    }
}

extension Key {
    /// The key a name means, as key maps write it (`ctrl+j`, `alt+1`, `shift+up`, `f1`, `?`,
    /// `space`): the inverse of `name`, case-insensitive for modifiers and named keys. Nil for a
    /// name no terminal key has.
    public init?(name: String) {
        var modifiers: Modifiers = []
        var rest = Substring(name)
        while let plus = rest.firstIndex(of: "+"), plus != rest.startIndex, rest.index(after: plus) != rest.endIndex {
            switch rest[..<plus].lowercased() {
            case "ctrl": modifiers.insert(.ctrl)
            case "alt": modifiers.insert(.alt)
            case "shift": modifiers.insert(.shift)
            default: return nil
            }
            rest = rest[rest.index(after: plus)...]
        }
        let key = String(rest)
        let code: KeyCode
        if key.count == 1, let character = key.first {
            guard !character.isWhitespace, !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return nil
            }
            // Terminals report Ctrl with a letter as the letter, whatever its case.
            code = .char(modifiers.contains(.ctrl) ? Character(character.lowercased()) : character)
        } else if let named = Self.namedCodes[key.lowercased()] {
            code = named
        } else if key.lowercased().hasPrefix("f"), let number = Int(key.dropFirst()), (1...12).contains(number) {
            code = .function(number)
        } else {
            return nil
        }
        self = Key(code, modifiers).normalized
    }

    /// One key for one press: Shift-Tab arrives as `backTab` from some terminals and as Tab with
    /// Shift from others.
    public var normalized: Key {
        code == .tab && modifiers.contains(.shift) ? Key(.backTab, modifiers.subtracting(.shift)) : self
    }

    private static let namedCodes: [String: KeyCode] = [
        "space": .char(" "), "enter": .enter, "tab": .tab, "backtab": .backTab, "escape": .escape, "esc": .escape,
        "backspace": .backspace, "delete": .delete, "insert": .insert, "up": .up, "down": .down, "left": .left,
        "right": .right, "home": .home, "end": .end, "pageup": .pageUp, "pagedown": .pageDown,
    ]
}
