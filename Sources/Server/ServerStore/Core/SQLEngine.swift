/// What the store core (`BFFStore`) needs of a database: to run a `Plan` in a transaction of its
/// own, recording its live events so they are published once it commits. Every rule of every
/// domain (users, todo, calendar, chat, canvases, registry, webhooks, idempotency keys, the audit
/// log) is written once, in `BFFStore`'s extensions over `SQLStatement` and `SQLRows`; an engine
/// adds only how it runs them (`SQLiteStore`, `PostgresStore`) and listens (its live event hub).
package protocol SQLEngine: Sendable {
    /// Where committed changes are told: to the observers of commits at once, and to this
    /// server's live event streams (on PostgreSQL, another instance's when the feed brings them).
    var liveEvents: LiveEventHub { get }
    /// Runs `plan` in one write transaction: committed when it returns, rolled back when it throws.
    func runWrite<T>(_ plan: Plan<T>) async throws -> T
    /// Runs `plan` to read, in one snapshot when `snapshot`; else each statement on its own, which
    /// costs a single SELECT no transaction around it.
    func runRead<T>(_ plan: Plan<T>, snapshot: Bool) async throws -> T
    /// The statement for the id of the newest live event committed (0 for none).
    var newestLiveEvent: SQLStatement { get }
    /// Throws unless the database can be reached and read now, for `/ready`.
    func checkReadable() async throws
}

extension BFFStore {
    /// Throws `BFFStoreError.quotaReached` when `count` (a `SELECT COUNT(*)` of what a user keeps)
    /// is at `limit`: what one user may keep of a kind, so no one fills the disk others need.
    static func checkQuota(_ count: SQLRows, _ limit: Int, of what: String) throws {
        guard try count.first?.integer(0) ?? 0 < Int64(limit) else { throw BFFStoreError.quotaReached(what: what, limit: limit) }
    }

    package func newestLiveEventID() async throws -> Int64 {
        try await runRead(.run(engine.newestLiveEvent) { rows in .done(try rows.first?.integer(0) ?? 0) }, snapshot: false)
    }

    package func liveEvents(after lastID: Int64, visibleTo user: Int64, limit: Int) async throws -> LiveEventReplay {
        try await runRead(LiveEventRetention.replay(after: lastID, visibleTo: user, limit: limit, newest: engine.newestLiveEvent), snapshot: true)
    }

    /// Runs `plan` in one write transaction that also keeps the request's `Idempotency-Key`, if
    /// any (`IdempotencyRules`). When a request with the same key committed meanwhile (another
    /// PostgreSQL instance), this one's write is rolled back and that one's result returned.
    func keyedWrite<T: KeyedResult>(_ plan: Plan<T>) async throws -> T {
        guard let request = IdempotentRequest.take() else { return try await runWrite(plan) }
        do {
            return try await runWrite(IdempotencyRules.keyed(plan, request))
        } catch is IdempotencyRules.KeyTakenMeanwhile {
            return try await runWrite(IdempotencyRules.replay(request))
        }
    }
}
