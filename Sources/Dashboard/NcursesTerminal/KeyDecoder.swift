import CanvasCore
internal import CNcursesw

/// Turns what `get_wch` returns into `Key`s.
enum KeyDecoder {
    /// A character read with `get_wch` returning OK.
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 9: return .tab
        // In raw mode with `nonl`, Enter sends CR; LF is Ctrl-J, which a key map may bind.
        case 13: return .enter
        case 27: return .escape
        case 8, 127: return Key(.backspace)
        case 0: return .ctrl(" ")
        case 1...26: return .ctrl(Character(Unicode.Scalar(value + 96)!))
        case 28...31: return nil
        default: return Unicode.Scalar(value).map { .char(Character($0)) }
        }
    }

    /// A key code read with `get_wch` returning KEY_CODE_YES.
    static func function(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_SLEFT: return .shift(.left)
        case KEY_SRIGHT: return .shift(.right)
        case KEY_SR: return .shift(.up)
        case KEY_SF: return .shift(.down)
        case KEY_HOME: return Key(.home)
        case KEY_END: return Key(.end)
        case KEY_SHOME: return .shift(.home)
        case KEY_SEND: return .shift(.end)
        case KEY_PPAGE: return Key(.pageUp)
        case KEY_NPAGE: return Key(.pageDown)
        case KEY_DC: return Key(.delete)
        case KEY_IC: return Key(.insert)
        case KEY_BACKSPACE: return Key(.backspace)
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case (KEY_F0 + 1)...(KEY_F0 + 48):
            // xterm sends F13–F24 for Shift+F1–F12 and F25–F36 for Ctrl+F1–F12.
            let n = Int(code - KEY_F0)
            let modifiers: [Modifiers] = [[], .shift, .ctrl, [.ctrl, .shift]]
            return Key(.function((n - 1) % 12 + 1), modifiers[(n - 1) / 12])
        default:
            return tc_key_name(code).flatMap { extendedKey(named: String(cString: $0)) }
        }
    }

    /// Keys with modifiers that terminfo names by suffix: `kLFT3` is Alt+Left, `kUP5` Ctrl+Up.
    /// Their codes differ between terminfo entries, so they are matched by name, never by number.
    static func extendedKey(named name: String) -> Key? {
        guard name.hasPrefix("k"), let suffix = name.last?.wholeNumberValue, (2...8).contains(suffix) else { return nil }
        let base: KeyCode
        switch name.dropFirst().dropLast() {
        case "UP": base = .up
        case "DN": base = .down
        case "LFT": base = .left
        case "RIT": base = .right
        case "HOM": base = .home
        case "END": base = .end
        case "PRV": base = .pageUp
        case "NXT": base = .pageDown
        case "DC": base = .delete
        case "IC": base = .insert
        default: return nil
        }
        // xterm's modifier parameter minus one: bit 0 Shift, bit 1 Alt, bit 2 Ctrl.
        let bits = suffix - 1
        var modifiers: Modifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.ctrl) }
        return Key(base, modifiers)
    }
}
