/// The rows of a frame that may differ from the frame before, as sorted, disjoint ranges: what
/// the diff reads, so a key that changed one pane compares that pane's rows and no others.
public struct DamagedRows: Hashable, Sendable {
    public private(set) var ranges: [Range<Int>] = []

    public init() {}

    /// Every row of a frame `height` rows high.
    public static func all(_ height: Int) -> DamagedRows {
        var rows = DamagedRows()
        rows.insert(0..<max(0, height))
        return rows
    }

    /// The rows, in order, of those inside a frame `height` rows high.
    func within(height: Int) -> some Sequence<Int> {
        ranges.lazy.flatMap { $0.clamped(to: 0..<max(0, height)) }
    }

    /// Adds `rows`, merged with the ranges it overlaps or touches.
    public mutating func insert(_ rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        var merged = rows
        var kept: [Range<Int>] = []
        kept.reserveCapacity(ranges.count + 1)
        var placed = false
        for range in ranges {
            if range.upperBound < merged.lowerBound {
                kept.append(range)
            } else if range.lowerBound > merged.upperBound {
                if !placed {
                    kept.append(merged)
                    placed = true
                }
                kept.append(range)
            } else {
                merged = min(range.lowerBound, merged.lowerBound)..<max(range.upperBound, merged.upperBound)
            }
        }
        if !placed { kept.append(merged) }
        ranges = kept
    }
}
