import CalendarTime

/// What the expansion asks of each day of one year, by the day's index in it (0 is 1 January),
/// worked out once per year: its month, day of the month (from the start and from the end),
/// weekday and, for rules with `BYWEEKNO`, whether its week is one of them. Seven more days, those
/// of the next January, let a week that starts in December end in the next year.
struct YearMasks {
    let year: Int
    let length: Int
    let nextLength: Int
    /// 1 January's days since 1970-01-01.
    let firstDay: Int
    /// The index of each month's first day, and the year's length last: 13 values.
    let monthStarts: [Int]
    private(set) var month: [Int8]
    private(set) var monthDay: [Int8]
    /// -1 the last day of its month, -31 at most.
    private(set) var negativeMonthDay: [Int8]
    /// 0 Monday … 6 Sunday.
    private(set) var weekday: [Int8]
    /// Empty unless the rule has `BYWEEKNO`.
    private(set) var inWeeks: [Bool] = []

    init(year: Int, weekNumbers: [Int], weekStart: Int) {
        self.year = year
        length = CalendarDate.isLeap(year) ? 366 : 365
        nextLength = CalendarDate.isLeap(year + 1) ? 366 : 365
        let january = CalendarDate(year: year, month: 1, day: 1)!
        firstDay = january.daysSinceEpoch
        let firstWeekday = january.weekday - 1
        var starts = [0]
        month = []
        monthDay = []
        negativeMonthDay = []
        month.reserveCapacity(length + 7)
        for m in 1...12 {
            let days = CalendarDate.daysIn(month: m, year: year)
            for d in 1...days {
                month.append(Int8(m))
                monthDay.append(Int8(d))
                negativeMonthDay.append(Int8(d - days - 1))
            }
            starts.append(starts[m - 1] + days)
        }
        for d in 1...7 {
            month.append(1)
            monthDay.append(Int8(d))
            negativeMonthDay.append(Int8(d - 32))
        }
        monthStarts = starts
        weekday = (0..<(length + 7)).map { Int8((firstWeekday + $0) % 7) }
        if !weekNumbers.isEmpty { inWeeks = Self.weeks(weekNumbers, of: year, length: length, firstWeekday: firstWeekday, weekStart: weekStart, weekday: weekday) }
    }

    /// The days of the weeks numbered `numbers`, week 1 being the first with four or more days of
    /// the year (RFC 5545's `BYWEEKNO`, as python-dateutil counts it).
    private static func weeks(_ numbers: [Int], of year: Int, length: Int, firstWeekday: Int, weekStart: Int, weekday: [Int8]) -> [Bool] {
        var mask = [Bool](repeating: false, count: length + 7)
        let firstWeekStart = (7 - firstWeekday + weekStart) % 7
        let weekOneStart: Int
        let weekYearLength: Int
        if firstWeekStart >= 4 {
            weekOneStart = 0
            weekYearLength = length + (firstWeekday - weekStart + 7) % 7
        } else {
            weekOneStart = firstWeekStart
            weekYearLength = length - firstWeekStart
        }
        let weekCount = weekYearLength / 7 + (weekYearLength % 7) / 4
        func markWeek(from start: Int) {
            var i = start
            for _ in 0..<7 {
                guard i >= 0, i < mask.count else { return }
                mask[i] = true
                i += 1
                if i < weekday.count, Int(weekday[i]) == weekStart { return }
            }
        }
        func start(ofWeek n: Int) -> Int {
            guard n > 1 else { return weekOneStart }
            var i = weekOneStart + (n - 1) * 7
            if weekOneStart != firstWeekStart { i -= 7 - firstWeekStart }
            return i
        }
        for number in numbers {
            let n = number < 0 ? number + weekCount + 1 : number
            guard (1...weekCount).contains(n) else { continue }
            markWeek(from: start(ofWeek: n))
        }
        if numbers.contains(1) {
            // Week 1 of the next year may start in this one.
            let next = start(ofWeek: weekCount + 1)
            if next < length { markWeek(from: next) }
        }
        if weekOneStart > 0 {
            // The days before week 1 are in the last week of the year before.
            let lastYearNumbers: Int
            if numbers.contains(-1) {
                lastYearNumbers = -1
            } else {
                let lastYearFirstWeekday = CalendarDate(year: year - 1, month: 1, day: 1)!.weekday - 1
                let lastYearLength = CalendarDate.isLeap(year - 1) ? 366 : 365
                let lastWeekOneStart = (7 - lastYearFirstWeekday + weekStart) % 7
                if lastWeekOneStart >= 4 {
                    lastYearNumbers = 52 + ((lastYearLength + (lastYearFirstWeekday - weekStart + 7) % 7) % 7) / 4
                } else {
                    lastYearNumbers = 52 + ((length - weekOneStart) % 7) / 4
                }
            }
            if numbers.contains(lastYearNumbers) {
                for i in 0..<weekOneStart { mask[i] = true }
            }
        }
        return mask
    }

    /// The days that are the `ordinal`th `weekday` of the ranges given (a month, the months of
    /// `BYMONTH`, or the year), as the rule's positioned `BYDAY` entries pick them.
    func positionedWeekdays(_ entries: [(weekday: Int, ordinal: Int)], in ranges: [Range<Int>]) -> [Bool] {
        var mask = [Bool](repeating: false, count: length + 7)
        for range in ranges where !range.isEmpty {
            let first = range.lowerBound, last = range.upperBound - 1
            for (wanted, ordinal) in entries {
                if ordinal < 0 {
                    var i = last + (ordinal + 1) * 7
                    guard i >= first else { continue }
                    i -= (Int(weekday[i]) - wanted + 7) % 7
                    if i >= first { mask[i] = true }
                } else {
                    var i = first + (ordinal - 1) * 7
                    guard i <= last else { continue }
                    i += (7 - Int(weekday[i]) + wanted) % 7
                    if i <= last { mask[i] = true }
                }
            }
        }
        return mask
    }
}
