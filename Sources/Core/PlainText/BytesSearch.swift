extension StringProtocol {
    /// Where `other`'s UTF-8 first appears in this text's, or nil: a byte-for-byte search, so
    /// "e" + U+0301 contains "e" here (the standard library's `firstRange(of:)` compares characters).
    ///
    /// What the dashboard's start and request paths search with (terminfo strings, URLs, zone
    /// paths): the standard library's searcher lives in `_StringProcessing`, 400 KB of code that
    /// every start would otherwise map (docs/benchmarks.md, issue 56).
    public func utf8Range(of other: String) -> Range<Index>? {
        let pattern = Array(other.utf8)
        guard let first = pattern.first else { return startIndex..<startIndex }
        let bytes = utf8
        var from = bytes.startIndex
        while let candidate = bytes[from...].firstIndex(of: first) {
            var end = candidate
            var matched = true
            for byte in pattern {
                guard end < bytes.endIndex, bytes[end] == byte else { matched = false; break }
                end = bytes.index(after: end)
            }
            if matched { return candidate..<end }
            from = bytes.index(after: candidate)
        }
        return nil
    }

    /// Whether `other`'s UTF-8 appears in this text's (`utf8Range(of:)`).
    public func utf8Contains(_ other: String) -> Bool { utf8Range(of: other) != nil }
}
