/// Text broken into lines that fit a width, at spaces where it can.
public enum TextWrap {
    /// Lines of at most `width` columns; a word wider than a line (a long path) is cut into
    /// pieces that fit, so it is read whole. Text that fits is one line as it is, leading spaces
    /// and all.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        guard DisplayWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        let words = text.split(separator: " ", omittingEmptySubsequences: false).flatMap { word in
            DisplayWidth.of(String(word)) <= width ? [String(word)] : pieces(of: String(word), width: width)
        }
        for word in words {
            let wordWidth = DisplayWidth.of(word)
            if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if lineWidth > 0 {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `word` cut into pieces at most `width` columns wide, by whole characters.
    private static func pieces(of word: String, width: Int) -> [String] {
        var pieces: [String] = []
        var piece = ""
        var pieceWidth = 0
        for character in word {
            let characterWidth = DisplayWidth.of(character)
            if pieceWidth + characterWidth > width, !piece.isEmpty {
                pieces.append(piece)
                piece = ""
                pieceWidth = 0
            }
            piece.append(character)
            pieceWidth += characterWidth
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }
}
