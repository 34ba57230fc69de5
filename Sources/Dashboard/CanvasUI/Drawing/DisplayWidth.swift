/// How many terminal columns text occupies, measured per grapheme cluster in the form it is
/// drawn in (`DrawnCluster`).
///
/// The rules follow what terminals and glibc's `wcwidth` do, without depending on the locale:
/// combining marks and format characters take 0 columns, East Asian wide and fullwidth
/// characters and emoji presentation take 2, a flag's letters 1 each, everything else 1.
public enum DisplayWidth {
    /// Columns taken by one grapheme cluster.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        let base = scalars.first!
        if DrawnCluster.isRegionalIndicator(base) { return scalars.count(where: DrawnCluster.isRegionalIndicator) }
        return of(base: base)
    }

    /// Columns a cell's glyph takes: its base's, since the marks after it take none.
    public static func of(_ glyph: Glyph) -> Int {
        guard let base = glyph.base else { return 0 }
        if base.value >= 0x20, base.value < 0x7F { return 1 }
        return of(base: base)
    }

    /// Columns a cluster's drawn base takes, outside the ASCII and regional-indicator cases.
    private static func of(base: Unicode.Scalar) -> Int {
        // Fast path for frequent bases: Latin before the combining block, box drawing.
        if (0xA0..<0x300).contains(base.value) || (0x2500..<0x25A0).contains(base.value) { return 1 }
        switch base.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            if DrawnCluster.isCombining(base) { return 0 }
        }
        // Only the first scalar is drawn, so VS16 after a text-presentation emoji does not widen it.
        if base.properties.isEmojiPresentation { return 2 }
        return isWide(base.value) ? 2 : 1
    }

    /// `text` in at most `width` columns: cut with a `…` when it does not fit.
    public static func clipped(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = of(character)
            guard used + characterWidth < width else { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }

    /// Columns taken by a string.
    public static func of(_ text: String) -> Int {
        if text.utf8.withContiguousStorageIfAvailable(isPrintableASCII) ?? false { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Whether every byte is printable ASCII, one column each: most text drawn, measured and
    /// written without grapheme breaking. A plain loop over the bytes (`allSatisfy` on a
    /// `UTF8View` walks an iterator, several times slower on a key's path).
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte < 0x20 || byte >= 0x7F { return false }
        return true
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges that are not emoji, sorted.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5,
        0x2FF0...0x2FFF, 0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF, 0x3105...0x312F,
        0x3131...0x318E, 0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
        0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5,
        0x18D00...0x18D08, 0x1AFF0...0x1B2FB, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
        0x1F250...0x1F251, 0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound {
                high = mid - 1
            } else if value > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }
}
