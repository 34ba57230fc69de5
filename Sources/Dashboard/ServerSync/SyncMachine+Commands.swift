import AppModel
import CalendarTime
import FoundationEssentials

extension SyncMachine {
    /// A widget's command: reads answer from the cache now and from the server later; writes
    /// change the cache, queue for the server and are sent when it can be reached.
    mutating func perform(_ command: AppCommand, now: Date, _ effects: inout [Effect]) {
        switch command {
        case .todo(.load):
            effects.append(.answerFromCache(.todos))
            if needsServerCopy { reload(.todo, &effects) }
        case .todo(.create(let new)):
            effects.append(.enqueue(.createTodo(new)))
        case .todo(.update(let id, let patch)):
            effects.append(.enqueue(.write(.updateTodo(id: id, patch))))
        case .todo(.delete(let id)):
            effects.append(.enqueue(.write(.deleteTodo(id: id))))
        case .calendar(.load(let days)):
            calendarRanges.insert(days)
            effects.append(.answerFromCache(.events(days)))
            if link.hasClient, !link.keepsCurrent(days) { startFetch(.events(days), &effects) }
        case .calendar(.create(let new)):
            effects.append(.enqueue(.createEvent(new)))
        case .calendar(.update(let id, let patch, let instances)):
            effects.append(.enqueue(.write(.updateEvent(id: id, patch, of: instances))))
        case .calendar(.delete(let id, let instances)):
            effects.append(.enqueue(.write(.deleteEvent(id: id, of: instances))))
        case .chat(.loadChannels):
            effects.append(.answerFromCache(.channels))
            if needsServerCopy { reload(.chat, &effects) }
        case .chat(.open(let channel)):
            openChannels.insert(channel)
            effects.append(.answerFromCache(.newestMessages(channel: channel)))
            if link.hasClient { startFetch(.newestMessages(channel: channel), &effects) }
        case .chat(.older(let channel, let before)):
            // From the server when it answers (`fetched` falls back to the cache), else the cache.
            if link.isOnline {
                startFetch(.olderMessages(channel: channel, before: before), &effects)
            } else {
                effects.append(.answerFromCache(.olderMessages(channel: channel, before: before)))
            }
        case .chat(.post(let channel, let text)):
            effects.append(.enqueue(.postMessage(channel: channel, text: text, author: user ?? "me", sentAt: Self.timestamp(now))))
        case .chat(.createChannel(let name)):
            effects.append(.enqueue(.write(.createChannel(name: name))))
        }
    }

    /// Whether a widget's load should also ask the server: not before the first refresh (which
    /// follows), nor while the live stream keeps the cache current.
    private var needsServerCopy: Bool {
        if case .notYet = firstReload { return false }
        return !link.isOnline
    }

    /// The UTC date-times that surely cover `days` in any time zone (a day either side), so a
    /// widget picks the events of its own local days.
    static func utcWindow(_ days: DayRange) -> (from: String, to: String) {
        let first = CalendarDate(iso: days.first) ?? CalendarDate(daysSinceEpoch: 0)
        let last = CalendarDate(iso: days.last) ?? first
        return (first.adding(days: -1).iso + "T00:00:00Z", last.adding(days: 2).iso + "T00:00:00Z")
    }

    /// An ISO 8601 UTC date-time with milliseconds, as the BFF writes `sentAt`.
    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}
