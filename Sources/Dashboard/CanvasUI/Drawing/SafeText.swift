import PlainText

/// Makes text from anywhere safe to draw: control characters become visible placeholders.
///
/// C0 controls show as their Unicode control pictures (ESC as `␛`), DEL as `␡`; C1 controls,
/// bidirectional marks, overrides and isolates, and line or paragraph separators as `�`
/// (`ControlScalars`). Nothing that a
/// terminal would interpret as a command or that reorders the line survives, so hostile text
/// cannot move the cursor, recolour the screen, set titles or disguise itself.
public enum SafeText {
    public static func placeholder(for character: Character) -> Character? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        let value = scalar.value
        switch value {
        case 0x00...0x1F: return Character(Unicode.Scalar(0x2400 + value)!)
        case 0x7F: return "\u{2421}"
        case 0x80...0x9F: return "\u{FFFD}"
        default:
            // Bidi controls and separators can also follow a base inside one cluster.
            return character.unicodeScalars.contains(where: isUnsafe) ? "\u{FFFD}" : nil
        }
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        ControlScalars.contains(scalar)
    }
}
