extension RecurrenceRule {
    /// The rule with every value within RFC 5545's bounds, each once: what the text's reader
    /// makes, and what a rule made in code becomes before it is expanded (repeated values would
    /// multiply the work, a value out of bounds would be no day or time at all). `impossible`
    /// when a list held only values out of bounds, so that nothing can match it.
    var withinBounds: (rule: RecurrenceRule, impossible: Bool) {
        var rule = self
        var impossible = false
        func keep(_ values: [Int], _ allowed: (Int) -> Bool) -> [Int] {
            let kept = values.filter(allowed).uniqued
            if kept.isEmpty, !values.isEmpty { impossible = true }
            return kept
        }
        rule.interval = min(max(1, interval), Self.maximumInterval)
        if case .count(let count) = end { rule.end = .count(min(max(0, count), Self.maximumCount)) }
        rule.bySecond = keep(bySecond) { (0...60).contains($0) }
        rule.byMinute = keep(byMinute) { (0...59).contains($0) }
        rule.byHour = keep(byHour) { (0...23).contains($0) }
        rule.byMonthDay = keep(byMonthDay, Self.signed(31))
        rule.byYearDay = keep(byYearDay, Self.signed(366))
        rule.byWeekNo = keep(byWeekNo, Self.signed(53))
        rule.byMonth = keep(byMonth) { (1...12).contains($0) }
        rule.bySetPos = keep(bySetPos, Self.signed(366))
        rule.byDay = byDay.filter { $0.ordinal.map { $0 != 0 && (-53...53).contains($0) } ?? true }.uniqued
        if rule.byDay.isEmpty, !byDay.isEmpty { impossible = true }
        return (rule, impossible)
    }
}

extension RecurrenceRule {
    /// 1…`limit` from the start, or -`limit`…-1 from the end.
    static func signed(_ limit: Int) -> (Int) -> Bool { { $0 != 0 && (-limit...limit).contains($0) } }
}

extension Array where Element: Hashable {
    /// The elements in order, each at its first place only.
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
