/// How well a typed query matches a name, as command palettes do: the query's characters must
/// appear in order (case-insensitively); matches at word starts and in runs score higher.
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
        return next == needle.count ? score : nil
    }
}
