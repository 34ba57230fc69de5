import Logging
import PostgresNIO
import ServerAPI
import ServiceLifecycle

/// Hands every committed live event, whichever instance wrote it, to this instance's streams, in
/// id order and once each, and drops the todo pages of the users whose todos changed.
///
/// It holds one connection that `LISTEN`s. At each notification, once right after it starts
/// listening (to catch up on what came before), and every `pollInterval` (a listening connection
/// that silently died, as through a dropped NAT entry, would otherwise stop this instance's events
/// for good), it reads the rows after the last id it handed on: a notification only says that
/// something committed, so a missed or coalesced one loses nothing. When the connection is lost
/// (the database restarts) it connects again with a growing pause, and drops every todo page kept
/// meanwhile, as it cannot know which changed.
package struct PostgresLiveEventFeed: Service {
    package let store: PostgresStore
    /// The newest event when the server started, before any stream could open.
    let startingAfter: Int64
    let logger: Logger
    static let pollInterval = Duration.seconds(5)
    /// The longest pause between attempts to listen again: events cross instances again at most
    /// this long after the database is back (at 5 s, a stream opened right after a restart could
    /// wait longer than its clients do).
    static let longestPause = Duration.seconds(2)

    package init(store: PostgresStore, startingAfter: Int64, logger: Logger) {
        self.store = store
        self.startingAfter = startingAfter
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var last = startingAfter
            var pause = Duration.milliseconds(100)
            while !Task.isCancelled {
                do {
                    try await store.client.withConnection { connection in
                        try await connection.listen(on: PostgresStore.liveEventChannel) { notifications in
                            store.liveEvents.committed(.unseen)
                            last = try await publish(after: last)
                            pause = .milliseconds(100)
                            logger.info("live event feed listening", metadata: ["after": "\(last)"])
                            // A notification or a tick: either means "read what came"; one pending is enough.
                            let (wakes, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                group.addTask {
                                    defer { waker.finish() }
                                    for try await _ in notifications { waker.yield() }
                                }
                                group.addTask {
                                    while true {
                                        try await Task.sleep(for: Self.pollInterval)
                                        waker.yield()
                                    }
                                }
                                for await _ in wakes { last = try await publish(after: last) }
                                group.cancelAll()
                                try await group.next()
                            }
                        }
                    }
                    logger.warning("live event feed: notifications ended; listening again")
                } catch {
                    guard !Task.isCancelled else { break }
                    logger.warning("live event feed lost its connection; retrying", metadata: ["error": "\(String(reflecting: error))",
                                                                                               "pause": "\(pause)"])
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, Self.longestPause)
                }
            }
        }
    }

    /// Publishes the committed events after `lastID`; returns the id of the last one.
    private func publish(after lastID: Int64) async throws -> Int64 {
        var last = lastID
        while true {
            let events = try await store.committedLiveEvents(after: last, limit: 1000)
            for published in events { store.liveEvents.publish(published) }
            guard let newest = events.last?.event.id else { return last }
            last = newest
        }
    }
}
