import PostgresNIO

/// A statement put together from parts, each value bound as a parameter (`$1`, `$2`, …), for the
/// queries whose conditions depend on a request's filters.
struct SQL {
    private var text = ""
    private var binds = PostgresBindings()

    init(_ text: String) {
        self.text = text
    }

    init(_ text: String, _ value: some PostgresNonThrowingEncodable & Sendable) {
        append(text, value)
    }

    /// Appends `text` followed by `value`'s placeholder.
    mutating func append(_ text: String, _ value: some PostgresNonThrowingEncodable & Sendable) {
        binds.append(value)
        self.text += text + "$\(binds.count)"
    }

    /// Appends text without a value.
    mutating func append(_ text: String) {
        self.text += text
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }
}
