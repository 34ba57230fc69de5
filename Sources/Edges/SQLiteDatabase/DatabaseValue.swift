/// A value as SQLite stores it.
public enum DatabaseValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value a column holds, and how it is bound to a statement's parameter.
public protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
    /// The value a column holds, or nil when it holds something else.
    static func from(_ value: DatabaseValue) -> Self?
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public static func from(_ value: DatabaseValue) -> Int64? {
        if case .integer(let number) = value { number } else { nil }
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func from(_ value: DatabaseValue) -> Int? {
        Int64.from(value).flatMap { Int(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    public static func from(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public static func from(_ value: DatabaseValue) -> Bool? {
        Int64.from(value).map { $0 != 0 }
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public static func from(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { text } else { nil }
    }
}

/// NULL is nil; any other value must be the wrapped type's.
extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    public static func from(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.from(value).map { .some($0) }
    }
}

/// A statement's parameters, in order: `[id, title, nil]`.
public struct StatementArguments: ExpressibleByArrayLiteral, Sendable {
    public let values: [DatabaseValue]

    public init(_ values: [DatabaseValue]) {
        self.values = values
    }

    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        values = elements.map { $0?.databaseValue ?? .null }
    }
}
