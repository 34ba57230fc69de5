/// The name a typo most likely meant, for "did you mean …?" in errors: a command in `keys.yaml`,
/// a subcommand of `termcanvas`.
public enum NearestName {
    /// The name in `names` nearest to `typed` by edit distance, nil when even it is further than
    /// `maximumDistance` (so a word that is not a typo of anything gets no silly suggestion).
    public static func among(_ names: [String], to typed: String, maximumDistance: Int = .max) -> String? {
        // Bounded: a typed word past a length no name has cannot be a typo of one.
        guard typed.count <= 200 else { return nil }
        let scored = names.map { (name: $0, distance: distance($0, typed)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= maximumDistance else { return nil }
        return best.name
    }

    /// Edit distance (insertions, deletions, substitutions), by characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
