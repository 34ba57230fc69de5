import AppModel
import CalendarTime
import FoundationEssentials
import HTTPClient
import ServerAPI

/// The dashboard's reminders: the server says which go off when (`GET /api/calendar/reminders`),
/// a day ahead; one timer waits for the next, so an idle dashboard wakes only for it. Each goes
/// off once (`CalendarRemindersDue`), and the moment up to which they went off is kept in the
/// cache: at the next start, those that went off while no dashboard was open are said once.
struct ReminderSchedule {
    /// Up to when reminders went off (kept in the cache); nil before the first.
    var shownUntil: Date?
    /// The reminders to come, by moment, and up to when the server was asked.
    var upcoming: [CalendarReminder] = []
    var askedUntil: Date?
    /// A request under way, and whether the calendar changed meanwhile (its answer is then
    /// old, and the server is asked again).
    var asking = false
    var askAgain = false
    /// When the dashboard started (the cache opened): reminders due before it went off while it
    /// was closed, and the start's answer says them as missed.
    var startedAt: Date?
    /// Whether the start's request was answered.
    var started = false
    /// Numbers the timers: one set before the last answer is stale.
    var generation = 0

    /// How far ahead the server is asked.
    static let ahead: TimeInterval = 86_400
    /// How far back reminders missed while the dashboard was closed are said.
    static let missedReach: TimeInterval = 7 * 86_400
    /// A reminder this late when the server tells of it, after the start's answer, has passed
    /// (an event made with an alarm in the past goes off no more than a calendar program's would).
    static let late: TimeInterval = 60
}

/// What a request for reminders brought: those going off up to `until`.
struct RemindersFetched: Sendable {
    var items: [CalendarReminder]
    var until: Date
}

extension SyncMachine {
    /// Asks the server for the reminders from where they last went off to a day ahead: when the
    /// stream connects, the calendar changes, or what is known runs out.
    mutating func askForReminders(now: Date, _ effects: inout [Effect]) {
        guard !reminders.asking else {
            reminders.askAgain = true
            return
        }
        reminders.asking = true
        let from = max(reminders.shownUntil ?? now, now - ReminderSchedule.missedReach)
        effects.append(.fetchReminders(after: from, until: now + ReminderSchedule.ahead))
    }

    mutating func remindersFetched(_ result: Result<RemindersFetched, HTTPClientError>, now: Date, _ effects: inout [Effect]) {
        reminders.asking = false
        if reminders.askAgain {
            reminders.askAgain = false
            askForReminders(now: now, &effects)
            return
        }
        guard case .success(let fetched) = result else {
            // Asked again when the stream connects again, or the calendar changes.
            if case .failure(let error) = result { effects.append(.log(.info, "reminders not read: \(error)")) }
            return
        }
        let shownUntil = reminders.shownUntil
        var upcoming = fetched.items.filter { reminder in shownUntil.map { reminder.at.date > $0 } ?? true }
        if reminders.started {
            upcoming.removeAll { now.timeIntervalSince($0.at.date) > ReminderSchedule.late }
        }
        reminders.upcoming = upcoming.sorted { $0.at < $1.at }
        reminders.askedUntil = fetched.until
        let starting = !reminders.started
        reminders.started = true
        goOff(now: now, starting: starting, &effects)
    }

    mutating func reminderTimer(generation: Int, now: Date, _ effects: inout [Effect]) {
        guard generation == reminders.generation else { return }
        if reminders.upcoming.isEmpty {
            askForReminders(now: now, &effects)
        } else {
            goOff(now: now, starting: false, &effects)
        }
    }

    /// Publishes the reminders due by now (at the start, those long past as missed), and sets
    /// the timer for the next, or for asking again when what is known runs out.
    private mutating func goOff(now: Date, starting: Bool, _ effects: inout [Effect]) {
        let due = reminders.upcoming.prefix { $0.at.date <= now }
        if let last = due.last {
            reminders.upcoming.removeFirst(due.count)
            let missed = starting ? due.filter { reminder in reminders.startedAt.map { reminder.at.date < $0 } ?? false } : []
            let onTime = due.filter { reminder in !missed.contains { $0 == reminder } }
            if !missed.isEmpty { effects.append(.publish([CalendarRemindersDue(reminders: Array(missed), missed: true)])) }
            if !onTime.isEmpty { effects.append(.publish([CalendarRemindersDue(reminders: Array(onTime), missed: false)])) }
            reminders.shownUntil = last.at.date
            effects.append(.setRemindedUntil(last.at.date))
        }
        reminders.generation += 1
        guard let next = reminders.upcoming.first?.at.date ?? reminders.askedUntil else { return }
        effects.append(.schedule(.reminder(generation: reminders.generation), after: .seconds(max(0, next.timeIntervalSince(now)))))
    }
}

extension UTCInstant {
    var date: Date { Date(timeIntervalSince1970: Double(secondsSinceEpoch)) }
}
