import CalendarTime

extension RecurrenceRule {
    /// The rule's instances that start within `range`, in order, at most `limit` of them: counted
    /// from `start` (the event's `DTSTART` on its own clock), which is the first when it fits the
    /// rule. A `UNTIL` in UTC is brought to the event's clock by `clockOfUTC` (for an event in a
    /// time zone; a floating or UTC event's clock is UTC's).
    ///
    /// The instances are those python-dateutil's `rrule` gives, which follow RFC 5545 section
    /// 3.3.10 (the tests hold the two side by side), but for one list of plain and positioned
    /// weekdays (see `keeps`). Work ends at the range's end, at `limit` instances, or past a
    /// budget of periods and candidates walked, so any rule expands in bounded time and memory,
    /// however it is written.
    public func instances(from start: LocalDateTime, in range: ClosedRange<LocalDateTime>, limit: Int = 10_000,
                          clockOfUTC: (LocalDateTime) -> LocalDateTime = { $0 }) -> [LocalDateTime] {
        var budget = Self.maximumWork
        return instances(from: start, in: range, limit: limit, budget: &budget, clockOfUTC: clockOfUTC)
    }

    /// As `instances(from:in:limit:clockOfUTC:)`, the walk spending at most `budget` (periods and
    /// candidate instances) instead of `maximumWork`, which it takes what it spent from: one
    /// budget for the many rules of one request. The walk ends where the budget does; at 0 or
    /// less after it, instances may be missing.
    public func instances(from start: LocalDateTime, in range: ClosedRange<LocalDateTime>, limit: Int = 10_000, budget: inout Int,
                          clockOfUTC: (LocalDateTime) -> LocalDateTime = { $0 }) -> [LocalDateTime] {
        var expansion = RecurrenceExpansion(rule: self, start: start, range: range, limit: limit, maximumWork: max(0, budget), clockOfUTC: clockOfUTC)
        var found: [LocalDateTime] = []
        while let instance = expansion.next() { found.append(instance) }
        budget -= expansion.work
        return found
    }

    /// The most one walk spends, when no budget is given: a rule of every second of a year before
    /// the range, or one that never happens, ends rather than take seconds.
    public static let maximumWork = 2_000_000
}

/// Walks a rule period by period (year, month, week, day, hour, …) from its start, as
/// python-dateutil's `rrule` does: the days of each period that every `BY…` part keeps, at the
/// times of day the rule gives, `BYSETPOS` picking among them.
struct RecurrenceExpansion: IteratorProtocol {
    private let start: LocalDateTime
    /// Where the instances asked for begin: a rule without a count skips the periods before it.
    private let from: LocalDateTime
    private let through: LocalDateTime
    private let frequency: RecurrenceRule.Frequency
    private let interval: Int
    private let until: LocalDateTime?
    private var remaining: Int?
    private let weekStart: Int
    private let months: UInt16
    private let weekdays: UInt8
    private let positionedWeekdays: [(weekday: Int, ordinal: Int)]
    private let monthDays: UInt64
    private let negativeMonthDays: UInt64
    private let yearDays: Set<Int>
    private let weekNumbers: [Int]
    private let hours: [Int]
    private let minutes: [Int]
    private let seconds: [Int]
    private let setPositions: [Int]
    /// Every time of day, for rules of a day or longer.
    private let times: [Int]
    /// Seconds into the hour (from `BYMINUTE` and `BYSECOND`), for hourly rules; into the minute
    /// (`BYSECOND`), for rules of a minute.
    private let timesInHour: [Int]
    private let timesInMinute: [Int]
    private let limit: Int
    /// Instances in the range found so far.
    private var found = 0

    private var year: Int
    private var month: Int
    private var day: Int
    private var hour: Int
    private var minute: Int
    private var second: Int
    private var masks: YearMasks
    /// The positioned weekdays' days, for `masks`'s year and `positionedMonth`.
    private var positioned: [Bool] = []
    private var positionedMonth = 0
    private var pending: [LocalDateTime] = []
    private var pendingIndex = 0
    private var finished = false
    private var skipped = false
    /// Periods and candidate instances walked: past `maximumWork`, the walk ends.
    private(set) var work = 0
    private let maximumWork: Int

    init(rule given: RecurrenceRule, start: LocalDateTime, range: ClosedRange<LocalDateTime>, limit: Int, maximumWork: Int,
         clockOfUTC: (LocalDateTime) -> LocalDateTime) {
        self.maximumWork = maximumWork
        let (rule, impossible) = given.withinBounds
        self.start = start
        from = range.lowerBound
        through = range.upperBound
        self.limit = max(0, limit)
        frequency = rule.frequency
        interval = rule.interval
        weekStart = rule.weekStart.rawValue
        switch rule.end {
        case .never:
            until = nil
        case .count(let count):
            until = nil
            remaining = count
        case .until(.date(let date)):
            // Inclusive: an event at 09:00 on that day is its last.
            until = LocalDateTime(date: date, secondsIntoDay: 86_399)
        case .until(.local(let moment)):
            until = moment
        case .until(.utc(let moment)):
            until = clockOfUTC(moment)
        }

        let startWeekday = start.date.weekday - 1
        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        if rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty, rule.byMonthDay.isEmpty, rule.byDay.isEmpty {
            switch rule.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [start.date.month] }
                byMonthDay = [start.date.day]
            case .monthly:
                byMonthDay = [start.date.day]
            case .weekly:
                byDay = [RecurrenceRule.WeekdayNumber(RecurrenceRule.Weekday(rawValue: startWeekday)!)]
            default:
                break
            }
        }
        months = byMonth.reduce(0) { $0 | 1 << UInt16($1) }
        var plain: UInt8 = 0
        var positioned: [(weekday: Int, ordinal: Int)] = []
        for entry in byDay {
            if let ordinal = entry.ordinal, rule.frequency <= .monthly {
                positioned.append((entry.weekday.rawValue, ordinal))
            } else {
                plain |= 1 << UInt8(entry.weekday.rawValue)
            }
        }
        weekdays = plain
        positionedWeekdays = positioned
        monthDays = byMonthDay.filter { $0 > 0 }.reduce(0) { $0 | 1 << UInt64($1) }
        negativeMonthDays = byMonthDay.filter { $0 < 0 }.reduce(0) { $0 | 1 << UInt64(-$1) }
        yearDays = Set(rule.byYearDay)
        weekNumbers = rule.byWeekNo
        setPositions = rule.bySetPos

        let everyNth = rule.interval
        func reachable(_ values: [Int], from start: Int, base: Int) -> [Int] {
            let step = Self.gcd(everyNth, base)
            return values.filter { step == 1 || ($0 - start) % step == 0 }
        }
        hours = rule.byHour.isEmpty ? (rule.frequency < .hourly ? [start.hour] : [])
            : rule.frequency == .hourly ? reachable(rule.byHour, from: start.hour, base: 24) : rule.byHour
        minutes = rule.byMinute.isEmpty ? (rule.frequency < .minutely ? [start.minute] : [])
            : rule.frequency == .minutely ? reachable(rule.byMinute, from: start.minute, base: 60) : rule.byMinute
        // A leap second (60) is no second of our clock: it picks nothing.
        let givenSeconds = rule.bySecond.filter { $0 < 60 }
        seconds = rule.bySecond.isEmpty ? (rule.frequency < .secondly ? [start.second] : [])
            : rule.frequency == .secondly ? reachable(givenSeconds, from: start.second, base: 60) : givenSeconds
        if impossible || (!rule.byHour.isEmpty && hours.isEmpty) || (!rule.byMinute.isEmpty && minutes.isEmpty)
            || (!rule.bySecond.isEmpty && seconds.isEmpty) || self.limit == 0 {
            finished = true  // no instance can ever be reached
        }
        var times: [Int] = []
        if rule.frequency < .hourly {
            for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
        }
        self.times = times.sorted()
        let (minutesGiven, secondsGiven) = (minutes, seconds)
        timesInHour = minutesGiven.flatMap { m in secondsGiven.map { m * 60 + $0 } }.sorted()
        timesInMinute = secondsGiven.sorted()

        year = start.date.year
        month = start.date.month
        day = start.date.day
        hour = start.hour
        minute = start.minute
        second = start.second
        masks = YearMasks(year: year, weekNumbers: weekNumbers, weekStart: weekStart)
    }

    mutating func next() -> LocalDateTime? {
        while pendingIndex == pending.count {
            guard !finished else { return nil }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            walkOnePeriod()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    // MARK: One period

    private mutating func walkOnePeriod() {
        work += 1
        guard work <= maximumWork, year <= 9999, let first = periodStart(), first <= through.date else {
            finished = true
            return
        }
        let period = periodDays
        let days = keptDays(of: period)
        let times = timesOfThisPeriod()
        if !setPositions.isEmpty, !times.isEmpty {
            var picked: [LocalDateTime] = []
            for position in setPositions {
                let (dayPosition, timePosition) = position < 0 ? position.floorDivided(by: times.count) : (position - 1).floorDivided(by: times.count)
                let dayIndex = dayPosition < 0 ? days.count + dayPosition : dayPosition
                guard days.indices.contains(dayIndex) else { continue }
                let instance = moment(ofDay: days[dayIndex], at: times[timePosition])
                if !picked.contains(instance) { picked.append(instance) }
            }
            for instance in picked.sorted() where !emit(instance) { return }
        } else {
            // Without a count, the days before the range need no walking (with one, they count).
            let firstDayWanted = remaining == nil ? from.date.daysSinceEpoch - masks.firstDay : Int.min
            for index in days where index >= firstDayWanted {
                for time in times where !emit(moment(ofDay: index, at: time)) { return }
            }
        }
        advance(filtered: days.count < period.count)
    }

    /// Counts `instance` unless it is before the start, and keeps it when it is in the range;
    /// false once the walk has ended. A period's instances come in order, as periods do, so the
    /// first past the range's end ends it.
    private mutating func emit(_ instance: LocalDateTime) -> Bool {
        work += 1
        if work > maximumWork || instance > through || until.map({ instance > $0 }) == true {
            finished = true
            return false
        }
        guard instance >= start else { return true }
        if let count = remaining {
            guard count > 0 else {
                finished = true
                return false
            }
            remaining = count - 1
        }
        if instance >= from {
            pending.append(instance)
            found += 1
        }
        if remaining == 0 || found >= limit { finished = true }
        return !finished
    }

    private func moment(ofDay index: Int, at time: Int) -> LocalDateTime {
        LocalDateTime(date: CalendarDate(daysSinceEpoch: masks.firstDay + index), secondsIntoDay: time)!
    }

    /// The first day of this period; nil past the calendar's last year.
    private func periodStart() -> CalendarDate? {
        switch frequency {
        case .yearly: CalendarDate(year: year, month: 1, day: 1)
        case .monthly: CalendarDate(year: year, month: month, day: 1)
        default: CalendarDate(year: year, month: month, day: day)
        }
    }

    /// The period's days, by index in the year.
    private var periodDays: Range<Int> {
        switch frequency {
        case .yearly:
            return 0..<masks.length
        case .monthly:
            return masks.monthStarts[month - 1]..<masks.monthStarts[month]
        case .weekly:
            let first = dayIndex
            var end = first
            for _ in 0..<7 {
                end += 1
                if Int(masks.weekday[end]) == weekStart { break }
            }
            return first..<end
        default:
            return dayIndex..<(dayIndex + 1)
        }
    }

    private var dayIndex: Int { CalendarDate(year: year, month: month, day: day)!.daysSinceEpoch - masks.firstDay }

    /// The days of the period every `BY…` part keeps.
    private mutating func keptDays(of period: Range<Int>) -> [Int] {
        if !positionedWeekdays.isEmpty, positioned.isEmpty || positionedMonth != month {
            let ranges: [Range<Int>]
            if frequency == .yearly {
                ranges = months == 0 ? [0..<masks.length]
                    : (1...12).filter { months & 1 << UInt16($0) != 0 }.map { masks.monthStarts[$0 - 1]..<masks.monthStarts[$0] }
            } else {
                ranges = [masks.monthStarts[month - 1]..<masks.monthStarts[month]]
            }
            positioned = masks.positionedWeekdays(positionedWeekdays, in: ranges)
            positionedMonth = month
        }
        return period.filter { keeps($0) }
    }

    private func keeps(_ i: Int) -> Bool {
        if months != 0, months & 1 << UInt16(masks.month[i]) == 0 { return false }
        if !weekNumbers.isEmpty, !masks.inWeeks[i] { return false }
        // `BYDAY=MO,-1WE` is every Monday and the last Wednesday: plain and positioned weekdays
        // are one list (RFC 5545; python-dateutil keeps only the days that are both).
        let plainDay = weekdays & 1 << UInt8(masks.weekday[i]) != 0
        switch (weekdays != 0, !positionedWeekdays.isEmpty) {
        case (true, true): if !plainDay && !positioned[i] { return false }
        case (true, false): if !plainDay { return false }
        case (false, true): if !positioned[i] { return false }
        case (false, false): break
        }
        if monthDays != 0 || negativeMonthDays != 0,
           monthDays & 1 << UInt64(masks.monthDay[i]) == 0, negativeMonthDays & 1 << UInt64(-Int(masks.negativeMonthDay[i])) == 0 {
            return false
        }
        if !yearDays.isEmpty {
            let (fromStart, fromEnd) = i < masks.length ? (i + 1, i - masks.length) : (i + 1 - masks.length, i - masks.length - masks.nextLength)
            if !yearDays.contains(fromStart), !yearDays.contains(fromEnd) { return false }
        }
        return true
    }

    /// The times of day of this period: every one the rule gives for a day or longer; for an hour
    /// or less, those within the current hour, minute or second.
    private func timesOfThisPeriod() -> [Int] {
        guard frequency >= .hourly else { return times }
        if (frequency >= .hourly && !hours.isEmpty && !hours.contains(hour))
            || (frequency >= .minutely && !minutes.isEmpty && !minutes.contains(minute))
            || (frequency >= .secondly && !seconds.isEmpty && !seconds.contains(second)) {
            return []
        }
        switch frequency {
        case .hourly:
            return timesInHour.map { hour * 3600 + $0 }
        case .minutely:
            return timesInMinute.map { hour * 3600 + minute * 60 + $0 }
        default:
            return [hour * 3600 + minute * 60 + second]
        }
    }

    // MARK: The next period

    private mutating func advance(filtered: Bool) {
        var fixDay = false
        switch frequency {
        case .yearly:
            year += interval
            rebuild()
        case .monthly:
            let index = year * 12 + month - 1 + interval
            year = index / 12
            month = index % 12 + 1
            rebuild()
        case .weekly:
            let weekday = CalendarDate(year: year, month: month, day: day)!.weekday - 1
            day += (weekStart > weekday ? -(weekday + 1 + (6 - weekStart)) : -(weekday - weekStart)) + interval * 7
            fixDay = true
        case .daily:
            day += interval
            fixDay = true
        case .hourly:
            if filtered { hour += ((23 - hour) / interval) * interval }
            let (days, newHour) = hours.isEmpty ? (hour + interval).floorDivided(by: 24) : distance(from: hour, to: hours, base: 24)
            hour = newHour
            if days > 0 {
                day += days
                fixDay = true
            }
        case .minutely:
            if filtered { minute += ((1439 - (hour * 60 + minute)) / interval) * interval }
            var found = false
            for _ in 0..<(1440 / Self.gcd(interval, 1440)) {
                work += 1
                let (addedHours, newMinute) = minutes.isEmpty ? (minute + interval).floorDivided(by: 60) : distance(from: minute, to: minutes, base: 60)
                minute = newMinute
                let (days, newHour) = (hour + addedHours).floorDivided(by: 24)
                hour = newHour
                if days > 0 {
                    day += days
                    fixDay = true
                }
                if hours.isEmpty || hours.contains(hour) {
                    found = true
                    break
                }
            }
            if !found { finished = true }
        case .secondly:
            if filtered { second += ((86_399 - (hour * 3600 + minute * 60 + second)) / interval) * interval }
            var found = false
            for _ in 0..<(86_400 / Self.gcd(interval, 86_400)) {
                work += 1
                let (addedMinutes, newSecond) = seconds.isEmpty ? (second + interval).floorDivided(by: 60) : distance(from: second, to: seconds, base: 60)
                second = newSecond
                let (addedHours, newMinute) = (minute + addedMinutes).floorDivided(by: 60)
                minute = newMinute
                if addedHours > 0 {
                    let (days, newHour) = (hour + addedHours).floorDivided(by: 24)
                    hour = newHour
                    if days > 0 {
                        day += days
                        fixDay = true
                    }
                }
                if (hours.isEmpty || hours.contains(hour)) && (minutes.isEmpty || minutes.contains(minute)) && (seconds.isEmpty || seconds.contains(second)) {
                    found = true
                    break
                }
            }
            if !found { finished = true }
        }
        if fixDay {
            var length = CalendarDate.daysIn(month: month, year: year)
            if day > length {
                while day > length {
                    day -= length
                    month += 1
                    if month == 13 {
                        month = 1
                        year += 1
                    }
                    length = CalendarDate.daysIn(month: month, year: year)
                }
                rebuild()
            }
        }
        skipTowardTheRange()
    }

    /// Once, after the first period: a rule without a count jumps whole periods to one before the
    /// range (a period's instances depend only on the period), so a month view of a rule that
    /// began years ago walks a few periods, not every one since.
    private mutating func skipTowardTheRange() {
        guard !skipped, remaining == nil else { return }
        skipped = true
        switch frequency {
        case .hourly, .minutely, .secondly:
            // Every moment the walk visits is the start plus a whole number of steps: jump to
            // one a day or more before the range.
            let step = Int64(interval) * (frequency == .hourly ? 3600 : frequency == .minutely ? 60 : 1)
            guard let current = LocalDateTime(date: CalendarDate(year: year, month: month, day: day)!, hour: hour, minute: minute, second: second)
            else { return }
            let steps = (from.secondsSinceEpoch - 86_400 - current.secondsSinceEpoch) / step
            guard steps > 0 else { return }
            let next = current.adding(seconds: steps * step)
            (year, month, day) = (next.date.year, next.date.month, next.date.day)
            (hour, minute, second) = (next.hour, next.minute, next.second)
        case .yearly:
            let periods = (from.date.year - year) / interval - 1
            guard periods > 0 else { return }
            year += periods * interval
        case .monthly:
            let periods = ((from.date.year * 12 + from.date.month) - (year * 12 + month)) / interval - 1
            guard periods > 0 else { return }
            let index = year * 12 + month - 1 + periods * interval
            year = index / 12
            month = index % 12 + 1
        default:
            // A week's periods start on the week's first day from the second on, so whole weeks keep that.
            let step = interval * (frequency == .weekly ? 7 : 1)
            let current = CalendarDate(year: year, month: month, day: day)!
            let periods = (from.date.daysSinceEpoch - current.daysSinceEpoch) / step - 1
            guard periods > 0 else { return }
            let next = current.adding(days: periods * step)
            (year, month, day) = (next.year, next.month, next.day)
        }
        rebuild()
    }

    /// Steps of `interval` from `value` to the next of `values` (mod `base`): how many times it
    /// wrapped past `base`, and the value reached.
    private func distance(from value: Int, to values: [Int], base: Int) -> (Int, Int) {
        var wraps = 0
        var current = value
        for _ in 0..<base {
            let (div, mod) = (current + interval).floorDivided(by: base)
            wraps += div
            current = mod
            if values.contains(current) { return (wraps, current) }
        }
        return (wraps, current)
    }

    private mutating func rebuild() {
        if masks.year != year { masks = YearMasks(year: min(year, 10_000), weekNumbers: weekNumbers, weekStart: weekStart) }
        positioned = []
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
