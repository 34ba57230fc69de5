import CalendarTime
import Foundation

/// One SQL statement written once for both engines: its text, each value kept apart to be bound
/// as a parameter (`?` in SQLite, `$1` in PostgreSQL), and the few words the engines spell
/// differently (`SQLWord`). Written as a string with interpolations:
/// `"SELECT title FROM todo_items WHERE id = \(id)"` binds `id`; it is never pasted into the text.
package struct SQLStatement: Sendable, ExpressibleByStringInterpolation {
    enum Part: Sendable {
        case text(String)
        case value(SQLValue)
        case word(SQLWord)
    }

    private(set) var parts: [Part]

    package init(stringLiteral text: String) {
        parts = [.text(text)]
    }

    package init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    /// Appends `other`: for statements whose conditions depend on a request's filters.
    static func += (statement: inout SQLStatement, other: SQLStatement) {
        statement.parts += other.parts
    }

    /// `values` as a comma-separated list of bound values, for `IN (…)`; at least one value.
    static func list(_ values: [some SQLBindable]) -> SQLStatement {
        var list: SQLStatement = "\(values[0])"
        for value in values.dropFirst() { list += ", \(value)" }
        return list
    }

    /// The text, each value's placeholder made by `placeholder` from its number (1 for the first)
    /// and each word spelled by `spell`; and the values, in order.
    func rendered(placeholder: (Int) -> String, spell: (SQLWord) -> String) -> (text: String, values: [SQLValue]) {
        var text = ""
        var values: [SQLValue] = []
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .word(let word): text += spell(word)
            case .value(let value):
                values.append(value)
                text += placeholder(values.count)
            }
        }
        return (text, values)
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }

        package mutating func appendInterpolation(_ value: some SQLBindable) {
            parts.append(.value(value.sqlValue))
        }

        package mutating func appendInterpolation(_ value: (some SQLBindable)?) {
            parts.append(.value(value?.sqlValue ?? .null))
        }

        /// Another statement's parts, as they are: a list of columns written once.
        package mutating func appendInterpolation(_ statement: SQLStatement) {
            parts += statement.parts
        }

        package mutating func appendInterpolation(_ word: SQLWord) {
            parts.append(.word(word))
        }
    }
}

/// What the engines spell their own way.
package enum SQLWord: Sendable {
    /// The current moment as a timestamp column holds it.
    case now
    /// After a SELECT in a write: its rows stay as read until the transaction ends (PostgreSQL's
    /// `FOR UPDATE`; SQLite runs one write at a time and needs none).
    case forUpdate
    /// As `forUpdate`, but others may read-lock the rows too (`FOR SHARE`).
    case forShare
    /// As `forUpdate`, leaving out rows another transaction holds (`FOR UPDATE SKIP LOCKED`): of
    /// PostgreSQL instances working through one queue, each row goes to one of them.
    case forUpdateSkipLocked
    /// `LIKE` that ignores case: SQLite's `LIKE` (ASCII letters only), PostgreSQL's `ILIKE`.
    case likeIgnoringCase
    /// After a text in `ORDER BY`: by its bytes, as SQLite always sorts (PostgreSQL's `COLLATE "C"`).
    case bytewise
    /// A table's key of 64-bit ids that never go back (SQLite's `AUTOINCREMENT`, PostgreSQL's `BIGSERIAL`).
    case autoIncrementKey
}

/// A value bound to a statement, or read from a row.
package enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
    /// A moment, for a timestamp column.
    case moment(Date)
    case null
}

/// A Swift value a statement can bind. Public, as `SQLStatement` is, for the engines' sake only.
package protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable {
    package var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    package var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    package var sqlValue: SQLValue { .real(self) }
}

extension String: SQLBindable {
    package var sqlValue: SQLValue { .text(self) }
}

extension Bool: SQLBindable {
    package var sqlValue: SQLValue { .bool(self) }
}

extension Date: SQLBindable {
    package var sqlValue: SQLValue { .moment(self) }
}

extension Data: SQLBindable {
    package var sqlValue: SQLValue { .blob(self) }
}

/// `YYYY-MM-DD`, so ranges compare as text.
extension CalendarDate: SQLBindable {
    package var sqlValue: SQLValue { .text(iso) }
}

/// `YYYY-MM-DDTHH:MM:SSZ`, so ranges compare as text.
extension UTCInstant: SQLBindable {
    package var sqlValue: SQLValue { .text(iso) }
}
