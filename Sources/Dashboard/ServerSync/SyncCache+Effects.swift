import AppModel
import CanvasCore
import Logging
import ServerAPI

extension SyncCache {
    /// Runs one of `SyncMachine`'s effects on the cache, publishing what a widget asked to see.
    /// - Returns: what the machine hears back: the effect's answer, or `cacheFailed` naming why.
    func run(_ effect: SyncMachine.Effect, publish: @Sendable ([any BusEvent]) -> Void, logger: Logger) async -> SyncMachine.Input? {
        do {
            switch effect {
            case .answerFromCache(let query):
                publish([try await answer(query)])
            case .enqueue(let request):
                let (events, pending) = try await enqueue(request)
                return .enqueued(events, pending: pending)
            case .readOutboxHead:
                return .outboxHead(try await outboxHead())
            case .complete(let entry, let record):
                let (events, pending) = try await complete(entry, serverRecord: record)
                return .completed(entry, events, pending: pending)
            case .drop(let entry):
                return .dropped(pending: try await drop(entry))
            case .applyLive(let change, let eventID, let author):
                return .applied(try await apply(change, eventID: eventID, author: author))
            case .store(let fetched, let keeping):
                publish([try await store(fetched, keeping: keeping)])
                return .stored(fetched.fetch)
            case .readStreamPosition:
                return .streamPosition(lastEventID: try? await lastEventID(), completeSince: try? await completeSince())
            case .setLastEventID, .setComplete, .setLastSynced, .setRemindedUntil:
                // Logged, not answered: a failed note must not fail into another note.
                do { try await note(effect) } catch { logger.error("local cache failed a note", metadata: ["error": "\(error)"]) }
            case .listen, .send, .fetch, .fetchReminders, .publish, .schedule, .log:
                break
            }
        } catch {
            return .cacheFailed(effect, "\(error)")
        }
        return nil
    }

    /// What the cache says to a widget's question, as the canvas event that answers it.
    private func answer(_ question: Fetch) async throws -> any BusEvent {
        switch question {
        case .registry:
            return RegistryLoaded(apps: try await registry() ?? [], origin: .cache)
        case .todos:
            return TodoItemsLoaded(items: try await todos(), origin: .cache)
        case .events(let days):
            let (from, to) = SyncMachine.utcWindow(days)
            return CalendarEventsLoaded(range: days, events: try await events(from: from, to: to), origin: .cache)
        case .channels:
            return ChatChannelsLoaded(channels: try await channels(), origin: .cache)
        case .newestMessages(let channel):
            let messages = try await messages(channel: channel, before: nil, limit: ChatLimits.defaultPageSize)
            return ChatMessagesLoaded(channel: channel, before: nil, messages: messages, complete: false, origin: .cache)
        case .olderMessages(let channel, let before):
            let limit = ChatLimits.defaultPageSize
            let messages = try await messages(channel: channel, before: before, limit: limit)
            return ChatMessagesLoaded(channel: channel, before: before, messages: messages, complete: messages.count < limit, origin: .cache)
        }
    }

    /// Stores what the server sent, as the canvas event that shows it.
    private func store(_ fetched: Fetched, keeping: Set<Int64>) async throws -> any BusEvent {
        switch fetched {
        case .registry(let apps):
            try await setRegistry(apps)
            return RegistryLoaded(apps: apps, origin: .server)
        case .todos(let items):
            return TodoItemsLoaded(items: try await replaceTodos(with: items, keeping: keeping), origin: .server)
        case .events(let days, let events):
            let (from, to) = SyncMachine.utcWindow(days)
            return CalendarEventsLoaded(range: days, events: try await replaceEvents(from: from, to: to, with: events, keeping: keeping),
                                        origin: .server)
        case .channels(let channels):
            return ChatChannelsLoaded(channels: try await replaceChannels(with: channels), origin: .server)
        case .newestMessages(let channel, let page):
            try await store(page.items)
            let messages = try await messages(channel: channel, before: nil, limit: ChatLimits.defaultPageSize)
            return ChatMessagesLoaded(channel: channel, before: nil, messages: messages, complete: page.next == nil, origin: .server)
        case .olderMessages(let channel, let before, let page):
            try await store(page.items)
            return ChatMessagesLoaded(channel: channel, before: before, messages: page.items, complete: page.next == nil, origin: .server)
        }
    }

    /// What the cache keeps about itself: where the stream resumes, whether it is complete, when
    /// an app last synced.
    private func note(_ effect: SyncMachine.Effect) async throws {
        switch effect {
        case .setLastEventID(let id): try await setLastEventID(id)
        case .setComplete(let date): try await setComplete(since: date)
        case .setLastSynced(let app, let date): try await setLastSynced(app.rawValue, date)
        case .setRemindedUntil(let date): try await setRemindedUntil(date)
        default: break
        }
    }
}
