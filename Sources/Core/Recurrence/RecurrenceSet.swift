import CalendarTime

/// The instances of a repeating event or task (RFC 5545 section 3.8.5): its start, the rule's
/// instances, the dates added one by one (`RDATE`), less those taken out (`EXDATE`), each once and
/// in order. All on the event's own clock; a zone turns them into moments afterwards.
public struct RecurrenceSet: Hashable, Sendable {
    public var start: LocalDateTime
    public var rule: RecurrenceRule?
    public var added: [LocalDateTime]
    public var removed: [LocalDateTime]

    public init(start: LocalDateTime, rule: RecurrenceRule? = nil, added: [LocalDateTime] = [], removed: [LocalDateTime] = []) {
        self.start = start
        self.rule = rule
        self.added = added
        self.removed = removed
    }

    /// The instances that start within `range`, at most `limit`. The start is always the first
    /// instance, whether or not it fits the rule, and counts towards a rule's `COUNT` (RFC 5545
    /// section 3.3.10): a start the rule would not give leaves the rule one instance fewer.
    public func instances(in range: ClosedRange<LocalDateTime>, limit: Int = 10_000,
                          clockOfUTC: (LocalDateTime) -> LocalDateTime = { $0 }) -> [LocalDateTime] {
        var budget = RecurrenceRule.maximumWork
        return instances(in: range, limit: limit, budget: &budget, clockOfUTC: clockOfUTC)
    }

    /// As `instances(in:limit:clockOfUTC:)`, spending at most `budget` (see `RecurrenceRule`'s).
    public func instances(in range: ClosedRange<LocalDateTime>, limit: Int = 10_000, budget: inout Int,
                          clockOfUTC: (LocalDateTime) -> LocalDateTime = { $0 }) -> [LocalDateTime] {
        var rule = self.rule
        if case .count(let count)? = rule?.end, rule?.instances(from: start, in: start...start, limit: 1, budget: &budget) != [start] {
            rule?.end = .count(count - 1)
        }
        var found = Set(rule?.instances(from: start, in: range, limit: limit, budget: &budget, clockOfUTC: clockOfUTC) ?? [])
        if range.contains(start) { found.insert(start) }
        for date in added where range.contains(date) { found.insert(date) }
        found.subtract(removed)
        return Array(found.sorted().prefix(limit))
    }
}
