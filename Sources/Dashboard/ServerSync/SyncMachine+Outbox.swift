import AppModel
import CanvasCore
import HTTPClient
import ServerAPI

/// The outbox: queued writes go to the server one at a time, in the order the user made them,
/// each with its own idempotency key, while the live stream says the server is there.
extension SyncMachine {
    /// Starts sending the outbox, unless it is sending already or the server is not there.
    mutating func flush(_ effects: inout [Effect]) {
        guard outbox == .idle, link.isOnline else { return }
        outbox = .readingHead
        effects.append(.readOutboxHead)
    }

    /// The next write after one is done, while the server is there.
    mutating func nextWrite(_ effects: inout [Effect]) {
        outbox = .idle
        flush(&effects)
    }

    mutating func sendHead(_ entry: OutboxEntry?, _ effects: inout [Effect]) {
        guard outbox == .readingHead else { return }
        guard let entry else {
            outbox = .idle
            outboxSettled(&effects)
            return
        }
        // A change to a record whose creation the server refused has no target.
        if let id = entry.write.recordID, LocalID.isLocal(id), entry.write.changesExistingRecord {
            outbox = .completing
            effects.append(.complete(entry, nil))
            return
        }
        outbox = .sending(entry, waits: 0)
        effects.append(.send(entry))
    }

    /// What the server said to a write. A change to a record someone deleted meanwhile (404) has
    /// nothing left to do, and a channel someone made first (409) exists. A write the server
    /// refuses (a 4xx other than 408/429) is dropped and its app reloaded, so the cache shows the
    /// server's truth again. A server still running an earlier send of the write (409 naming the
    /// `Idempotency-Key`) is asked again a few times; any other failure pauses the outbox until the
    /// next write or reconnect, and nothing is lost.
    mutating func answered(_ entry: OutboxEntry, _ result: Result<ServerRecord?, HTTPClientError>, _ effects: inout [Effect]) {
        guard case .sending(let sent, let waits) = outbox, sent == entry else { return }
        switch result {
        case .success(let record):
            complete(entry, record, &effects)
        case .failure(.status(409, _, let problem?)) where problem.field == Self.idempotencyKeyField:
            guard link.isOnline, waits < Self.stillRunningWaits else { return pause(after: nil, &effects) }
            outbox = .waitingToResend(entry, waits: waits + 1)
            effects.append(.schedule(.resend(seq: entry.seq), after: Self.stillRunningWait))
        case .failure(.status(404, _, _)) where entry.write.changesExistingRecord:
            complete(entry, nil, &effects)
        case .failure(.status(409, _, _)) where entry.write.isChannelCreation:
            complete(entry, nil, &effects)
        case .failure(let error) where !error.isTransient && error != .cancelled:
            outbox = .completing
            effects.append(.log(.warning, "server refused a queued \(entry.write.app) write: \(error)"))
            effects.append(.drop(entry))
            statuses.problems[entry.write.app] = "server refused a change: \(Self.describe(error))"
            reload(entry.write.app, &effects)
        case .failure(let error):
            pause(after: error, &effects)
        }
    }

    /// The server was still running the write: send it again while it is there.
    mutating func resend(_ seq: Int64, _ effects: inout [Effect]) {
        guard case .waitingToResend(let entry, let waits) = outbox, entry.seq == seq else { return }
        guard link.isOnline else { return pause(after: nil, &effects) }
        outbox = .sending(entry, waits: waits)
        effects.append(.send(entry))
    }

    private mutating func complete(_ entry: OutboxEntry, _ record: ServerRecord?, _ effects: inout [Effect]) {
        outbox = .completing
        // Marked now, before any fetch under way can store its older copy; but a repeating event's
        // instances are the server's to list, and its live event has the list read again.
        if !entry.write.changesInstances {
            if let id = entry.write.recordID, !LocalID.isLocal(id) { touch(entry.write.app, id) }
            if let id = record?.id { touch(entry.write.app, id) }
        }
        effects.append(.complete(entry, record))
    }

    mutating func completed(_ entry: OutboxEntry, events: [any BusEvent], pending: [ServerApp: Int], _ effects: inout [Effect]) {
        statuses.pending = pending
        statuses.problems[entry.write.app] = nil
        effects.append(.publish(events + statusChanges(force: false)))
        nextWrite(&effects)
    }

    /// The outbox sent what it could (all of it, or until a failure paused it): the reload the
    /// connect asked for may start.
    mutating func outboxSettled(_ effects: inout [Effect]) {
        guard case .waitingForOutbox(let reload, let requested) = firstReload else { return }
        firstReload = .started
        switch reload {
        case .everything: refreshAll(now: requested, &effects)
        case .catchUp: catchUp(now: requested, &effects)
        }
    }

    private mutating func pause(after error: HTTPClientError?, _ effects: inout [Effect]) {
        outbox = .idle
        effects.append(.log(.info, "outbox paused: \(error.map { "\($0)" } ?? "the server is still running a write")"))
        if let error { link = .lost(Self.connection(after: error)) }
        publishStatuses(&effects)
        outboxSettled(&effects)
    }
}
