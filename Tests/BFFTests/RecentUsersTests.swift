@testable import BFF
@testable import ServerHTTP
@testable import ServerStore
import Synchronization
import Testing

/// The users a server remembers for a second: looked up once for many askers, looked up again in
/// the background before they expire, and a deleted user gone within the second. Time is passed
/// in; the one wait is 50 ms for a second asker to reach a lookup held under way.
struct RecentUsersTests {
    /// A user table whose lookups are counted, announced and, while it is held, kept waiting
    /// until the test lets them go.
    final class Table: Sendable {
        let lookups = Atomic<Int>(0)
        let present = Atomic<Bool>(true)
        /// One element as each lookup starts.
        let started: AsyncStream<Void>
        private let announce: AsyncStream<Void>.Continuation
        private let gate = Mutex<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        init() { (started, announce) = AsyncStream.makeStream() }

        func hold() { gate.withLock { $0.held = true } }

        func release() {
            let waiting = gate.withLock { gate in
                gate.held = false
                defer { gate.waiting = [] }
                return gate.waiting
            }
            for lookup in waiting { lookup.resume() }
        }

        func lookUp(_ id: Int64) async throws -> SignedInUser? {
            lookups.add(1, ordering: .relaxed)
            announce.yield()
            await withCheckedContinuation { lookup in
                let held = gate.withLock { gate in
                    if gate.held { gate.waiting.append(lookup) }
                    return gate.held
                }
                if !held { lookup.resume() }
            }
            return present.load(ordering: .relaxed) ? SignedInUser(user: BFFUser(id: id, name: "ann"), sessions: []) : nil
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func manyAskersAtOnceLookTheUserUpOnce() async throws {
        let table = Table()
        let users = RecentUsers(validity: .seconds(10))
        table.hold()
        try await withThrowingTaskGroup(of: SignedInUser?.self) { group in
            for _ in 0..<50 { group.addTask { try await users.user(id: 1, lookUp: table.lookUp) } }
            var starts = table.started.makeAsyncIterator()
            await starts.next()
            table.release()
            for try await user in group { #expect(user?.user.name == "ann") }
        }
        #expect(table.lookups.load(ordering: .relaxed) == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func pastHalfItsValidityAUserIsServedAndLookedUpAgainInTheBackground() async throws {
        let table = Table()
        let users = RecentUsers(validity: .milliseconds(400))
        let start = ContinuousClock.now
        #expect(try await users.user(id: 1, now: start, lookUp: table.lookUp) != nil)
        // The database is slow now: the asker is answered from memory, not kept waiting for it
        // (were it kept waiting, this would not return until the time limit).
        table.hold()
        #expect(try await users.user(id: 1, now: start + .milliseconds(250), lookUp: table.lookUp) != nil)
        var starts = table.started.makeAsyncIterator()
        await starts.next()
        await starts.next()
        #expect(table.lookups.load(ordering: .relaxed) == 2, "looked up again in the background")
        table.release()
    }

    @Test func beforeHalfItsValidityAUserIsNotLookedUpAgain() async throws {
        let table = Table()
        let users = RecentUsers(validity: .milliseconds(400))
        let start = ContinuousClock.now
        _ = try await users.user(id: 1, now: start, lookUp: table.lookUp)
        _ = try await users.user(id: 1, now: start + .milliseconds(150), lookUp: table.lookUp)
        #expect(table.lookups.load(ordering: .relaxed) == 1)
    }

    @Test func aDeletedUserIsGoneWithinTheValidity() async throws {
        let table = Table()
        let users = RecentUsers(validity: .milliseconds(300))
        let start = ContinuousClock.now
        #expect(try await users.user(id: 1, now: start, lookUp: table.lookUp) != nil)
        table.present.store(false, ordering: .relaxed)
        #expect(try await users.user(id: 1, now: start + .milliseconds(320), lookUp: table.lookUp) == nil)
    }

    /// A lookup stuck on a database that went away is not joined once it is older than the join
    /// window: a request after the database came back looks its user up itself, and is answered
    /// while the stuck lookup still waits for its deadline (before, it waited with it and got its
    /// failure: a 503 right after `/ready` said 200).
    @Test(.timeLimit(.minutes(1)))
    func aStuckLookupIsNotJoinedPastTheJoinWindow() async throws {
        let table = Table()
        let users = RecentUsers(validity: .seconds(1))
        let start = ContinuousClock.now
        table.hold()
        let stuck = Task { try await users.user(id: 1, now: start, lookUp: table.lookUp) }
        var starts = table.started.makeAsyncIterator()
        await starts.next()
        // The database is back: this lookup is not held.
        let back = try await users.user(id: 1, now: start + RecentUsers.joinWindow, lookUp: { id in SignedInUser(user: BFFUser(id: id, name: "ann"), sessions: []) })
        #expect(back?.user.name == "ann")
        // Within the window, an asker still waits for the lookup under way.
        table.release()
        #expect(try await stuck.value?.user.name == "ann")
        #expect(table.lookups.load(ordering: .relaxed) == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func withinTheJoinWindowAskersWaitForTheLookupUnderWay() async throws {
        let table = Table()
        let users = RecentUsers(validity: .seconds(1))
        let start = ContinuousClock.now
        table.hold()
        let first = Task { try await users.user(id: 1, now: start, lookUp: table.lookUp) }
        var starts = table.started.makeAsyncIterator()
        await starts.next()
        let second = Task { try await users.user(id: 1, now: start + RecentUsers.joinWindow / 2, lookUp: table.lookUp) }
        try await Task.sleep(for: .milliseconds(50))
        table.release()
        let answers = (try await first.value, try await second.value)
        #expect(answers.0 != nil && answers.1 != nil)
        #expect(table.lookups.load(ordering: .relaxed) == 1)
    }
}
