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
