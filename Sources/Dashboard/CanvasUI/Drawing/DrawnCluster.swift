/// The form in which a grapheme cluster reaches the terminal: one that every terminal, and the
/// C library curses measures with, give the same width.
///
/// Terminals disagree about clusters of several visible scalars: whether VS16 widens "❤️",
/// whether a skin tone or the second half of a flag takes cells of its own, whether a ZWJ at the
/// end of one cell joins the character written into the next. One disagreement shifts the rest of
/// the row on the terminal but not in curses' picture of it, and curses, believing the screen
/// right, never repairs it. So a cell holds a cluster's first scalar and the combining marks after
/// it (accents, enclosing circles, Hangul vowels and finals), at most `maxScalars` in all; joiners,
/// variation selectors, emoji modifiers and the scalars a ZWJ joins are left out. A flag is drawn
/// as its letters ("🇫🇷" as "FR"), which no terminal measures wrongly.
public enum DrawnCluster {
    /// Scalars in one cell: the base and four marks, what curses keeps (`CCHARW_MAX`).
    static let maxScalars = 5

    /// A flag's (or a lone regional indicator's) letters, one column each; nil for anything else.
    public static func letters(of character: Character) -> String? {
        guard let base = character.unicodeScalars.first, isRegionalIndicator(base) else { return nil }
        let letters = character.unicodeScalars.filter(isRegionalIndicator).map { Character(Unicode.Scalar($0.value - 0x1F1E6 + 0x41)!) }
        return String(letters)
    }

    /// What a cell holding `character` draws: its first scalar and the combining marks after it.
    public static func glyph(of character: Character) -> Glyph {
        let scalars = character.unicodeScalars
        guard let base = scalars.first else { return .empty }
        var glyph = Glyph(base)
        for mark in scalars.dropFirst() where isCombining(mark) && !glyph.append(mark) { break }
        return glyph
    }

    /// The marks of a zero-width cluster (one that joins the cell before it) worth drawing.
    static func marks(of character: Character) -> [Unicode.Scalar] {
        character.unicodeScalars.filter(isCombining)
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Marks every terminal draws over the character before them: nonspacing and enclosing marks
    /// other than variation selectors, and Hangul medial vowels and finals.
    static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF: return false
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true
        default:
            let category = scalar.properties.generalCategory
            return category == .nonspacingMark || category == .enclosingMark
        }
    }
}
