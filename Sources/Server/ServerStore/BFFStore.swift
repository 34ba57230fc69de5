import CalendarTime
import CanvasCore
import Foundation
import ServerAPI

/// The server's data, whichever engine keeps it: users, their todo items and calendar events,
/// shared chat channels, the live event log, idempotency keys, the registry and the webhook queue.
/// Its rules are written once, in its extensions (`BFFStore+Todo`, …), as `Plan`s an engine runs:
/// `SQLiteStore`, the embedded default, or `PostgresStore`.
///
/// Writes are named after intent; every todo and calendar operation takes the owner's id, so one
/// user can never read or change another's data. Every write that changes data records its live
/// event in the same transaction, published to `liveEvents` once it commits. The writes a client
/// may retry keep the request's `Idempotency-Key` in that transaction too (`IdempotentRequest`).
package struct BFFStore: Sendable {
    /// The database the rules run on.
    package let engine: any SQLEngine
    /// The bcrypt cost for new password hashes (log2 rounds, 4...31).
    let bcryptCost: UInt8

    /// - Parameter bcryptCost: the cost of new password hashes, kept within 4...31 (tests use 4).
    package init(_ engine: any SQLEngine, bcryptCost: UInt8 = 12) {
        self.engine = engine
        self.bcryptCost = min(max(bcryptCost, 4), 31)
    }

    /// Where committed changes are told: observers of commits first, then the live event streams.
    package var liveEvents: LiveEventHub { engine.liveEvents }

    /// Throws unless the database can be reached and read now, for `/ready`.
    package func checkReadable() async throws {
        try await engine.checkReadable()
    }

    func runWrite<T>(_ plan: Plan<T>) async throws -> T {
        try await engine.runWrite(plan)
    }

    func runRead<T>(_ plan: Plan<T>, snapshot: Bool) async throws -> T {
        try await engine.runRead(plan, snapshot: snapshot)
    }
}

extension BFFStore {
    @discardableResult
    package func addUser(name: String, password: String?) async throws -> BFFUser {
        try await addUser(name: name, password: password, isAdmin: false)
    }

    package func liveEvents(after lastID: Int64, visibleTo user: Int64) async throws -> LiveEventReplay {
        try await liveEvents(after: lastID, visibleTo: user, limit: 1000)
    }

    package func acceptHook(app: String, signature: String, event: String, data: String) async throws -> Int64? {
        try await acceptHook(app: app, signature: signature, event: event, data: data, now: Date())
    }
}
