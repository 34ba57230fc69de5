/// Text broken into lines that fit a width, at spaces where it can.
public enum TextWrap {
    /// A line of source text in lines of at most `width` columns: each piece after the first
    /// is indented as the line is, after a `↪ ` that says it goes on from the line above, so a
    /// script's structure (Python's indentation) reads as it is.
    public static func code(_ line: String, width: Int) -> [String] {
        guard width > 2, DisplayWidth.of(line) > width else { return lines(line, width: width) }
        let indent = String(repeating: " ", count: min(line.prefix { $0 == " " }.count, width / 2))
        let body = String(line.drop { $0 == " " })
        let pieces = lines(body, width: width - indent.count - continuation.count)
        return pieces.enumerated().map { index, piece in indent + (index == 0 ? "" : continuation) + piece }
    }

    /// What begins a piece of a source line that goes on from the line above.
    public static let continuation = "↪ "

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
