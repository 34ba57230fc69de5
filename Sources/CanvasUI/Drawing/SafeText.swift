/// Makes text from anywhere safe to draw: control characters become visible placeholders.
///
/// C0 controls show as their Unicode control pictures (ESC as `␛`), DEL as `␡`, C1 controls
/// and other non-printing characters as `�`. Nothing that a terminal would interpret as a
/// command survives, so hostile text cannot move the cursor, recolour the screen or set titles.
public enum SafeText {
    public static func placeholder(for character: Character) -> Character? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        let value = scalar.value
        switch value {
        case 0x00...0x1F: return Character(Unicode.Scalar(0x2400 + value)!)
        case 0x7F: return "\u{2421}"
        case 0x80...0x9F: return "\u{FFFD}"
        default:
            // A cluster can hide a control after its base: `e` + ESC is one Character in Swift.
            return character.unicodeScalars.dropFirst().contains(where: isControl) ? "\u{FFFD}" : nil
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
