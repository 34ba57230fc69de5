import Foundation
import ServerAPI

/// A transaction's work as a value, decided by rules written once for both engines: the
/// statements to run and what to do with what each returned. Each engine runs a plan in a
/// transaction of its own — `SQLiteStore` in GRDB's synchronous writer, `PostgresStore` on a
/// pooled connection with `await` — so a rule does not care which.
package indirect enum Plan<Result: Sendable>: Sendable {
    case done(Result)
    case failed(any Error)
    /// Runs the statement, then goes on with what `next` makes of its rows.
    case query(SQLStatement, next: @Sendable (SQLRows) throws -> Plan)
    /// Records a live event in the transaction; it is published once the transaction commits.
    case record(LiveEventDraft, next: Plan)
    /// Holds `key` until the transaction ends, so writers on one key (PostgreSQL instances writing
    /// at once) take turns. SQLite runs one write at a time and needs none.
    case lock(String, next: Plan)

    /// `statement`, then `next` with its rows.
    static func run(_ statement: SQLStatement, then next: @escaping @Sendable (SQLRows) throws -> Plan) -> Plan {
        .query(statement, next: next)
    }

    /// Records `name` with `data` as its JSON, then goes on with `next`.
    static func record(_ name: EventName, owner: Int64?, data: some Encodable, then next: Plan) -> Plan {
        do {
            return .record(try LiveEventDraft(name, owner: owner, data: data), next: next)
        } catch {
            return .failed(error)
        }
    }

    /// `step` of each of `items` in turn, in the same transaction. Each step's plan is made when
    /// the one before has run, so a long list costs as many steps as it has items, not the
    /// square of them, as a chain of `then` built up front would (each `then` wraps the whole
    /// chain before it).
    static func forEach<Item: Sendable>(_ items: [Item], from index: Int = 0, _ step: @escaping @Sendable (Item) throws -> Plan<Void>) -> Plan<Void>
        where Result == Void {
        guard index < items.count else { return .done(()) }
        do {
            return try step(items[index]).then { _ in forEach(items, from: index + 1, step) }
        } catch {
            return .failed(error)
        }
    }

    /// This plan, then the plan `next` makes of its result, in the same transaction.
    func then<Next>(_ next: @escaping @Sendable (Result) throws -> Plan<Next>) -> Plan<Next> {
        switch self {
        case .done(let result):
            do { return try next(result) } catch { return .failed(error) }
        case .failed(let error): return .failed(error)
        case .query(let statement, let rest): return .query(statement) { rows in try rest(rows).then(next) }
        case .record(let event, let rest): return .record(event, next: rest.then(next))
        case .lock(let key, let rest): return .lock(key, next: rest.then(next))
        }
    }
}

/// A live event a plan records: who may see it (nil: everyone) and its data as JSON text.
package struct LiveEventDraft: Sendable {
    let name: String
    let owner: Int64?
    let json: String

    init(_ name: EventName, owner: Int64?, data: some Encodable) throws {
        self.init(name: name.rawValue, owner: owner, json: String(decoding: try JSONEncoder().encode(data), as: UTF8.self))
    }

    /// Whether a client that misses this event recovers by itself: a shared canvas's, which a
    /// dashboard catches up on by version after every reconnect (`LiveEventRetention`).
    var isRecoverable: Bool {
        name == EventName.canvasChangeApplied.rawValue || name == EventName.canvasPresenceChanged.rawValue
    }

    /// An event by name with its data as JSON text: a webhook's, passed on as it came.
    init(name: String, owner: Int64?, json: String) {
        self.name = name
        self.owner = owner
        self.json = json
    }
}
