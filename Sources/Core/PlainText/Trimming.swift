extension StringProtocol {
    /// Without the whitespace at either end: spaces (Unicode's `Zs`) and tabs, and with
    /// `andNewlines` also line breaks. What Foundation's `trimmingCharacters(in: .whitespaces)`
    /// (`.whitespacesAndNewlines`) gives, for code that links FoundationEssentials only.
    public func trimmingWhitespace(andNewlines: Bool = false) -> String {
        let scalars = unicodeScalars
        let isTrimmed = { (scalar: Unicode.Scalar) in
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
                || (andNewlines && ("\n"..."\r" ~= scalar || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}"))
        }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    /// Without any of `characters` at either end.
    public func trimming(_ characters: Set<Character>) -> String {
        guard let first = firstIndex(where: { !characters.contains($0) }), let last = lastIndex(where: { !characters.contains($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension String {
    /// Exactly `length` characters: cut, or filled with spaces after (what Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)` gives).
    public func padded(toLength length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }
}
