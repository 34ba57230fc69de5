/// How well a typed query matches a name, as command palettes do: the query's characters must
/// appear in order (case-insensitively); matches at word starts and in runs score higher, and
/// the query as one run (a whole word: "wider") beats its letters picked up first-come.
public enum FuzzyMatch {
    /// The score, higher is better, or nil when the query's characters are not all there in order.
    public static func score(_ query: String, in text: String) -> Int? {
        let needle = Array(query.lowercased().filter { $0 != " " })
        guard !needle.isEmpty else { return 0 }
        let haystack = Array(text.lowercased())
        var score = 0
        var next = 0
        var previousMatch: Int?
        for (index, character) in haystack.enumerated() where next < needle.count && character == needle[next] {
            let wordStart = index == 0 || !haystack[index - 1].isLetter && !haystack[index - 1].isNumber
            score += 1 + (wordStart ? 8 : 0) + (previousMatch == index - 1 ? 5 : 0)
            if let previousMatch { score -= min(3, index - previousMatch - 1) }
            previousMatch = index
            next += 1
        }
        guard next == needle.count else { return nil }
        return max(score, bestRun(needle, in: haystack) ?? score)
    }

    /// The score of the query's characters found as one run, at its best place (a word start,
    /// early in the text).
    private static func bestRun(_ needle: [Character], in haystack: [Character]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var best: Int?
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            let wordStart = start == 0 || !haystack[start - 1].isLetter && !haystack[start - 1].isNumber
            // Earlier is better, a little: a title that starts with the word names what it does.
            best = max(best ?? 0, needle.count * 6 - 5 + (wordStart ? 8 : 0) - min(3, start / 10))
        }
        return best
    }
}
