/// A mistake in a human-edited file, saying where it is, which field, and what was expected.
public struct FileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// 1-based; nil when the mistake is about the whole file.
    public let line: Int?
    public let column: Int?
    /// The field's path, e.g. `panes[1].width`; empty for the file itself.
    public let field: String
    public let message: String

    public init(file: String, line: Int?, column: Int?, field: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `layouts/planner.yaml:7:12: panes[0].width: expected a whole number from 1 to 12, got 'wide'`
    public var description: String {
        let location = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return field.isEmpty ? "\(location): \(message)" : "\(location): \(field): \(message)"
    }
}

/// Several mistakes in one file, each as a `FileError`, in the order they stand in it: a file is
/// checked whole, so that one run names every mistake.
public struct FileErrors: Error, Equatable, CustomStringConvertible {
    public let errors: [FileError]

    /// One line per mistake.
    public var description: String { errors.map(\.description).joined(separator: "\n") }

    /// Throws what `errors` holds: nothing, the one mistake, or all of them.
    static func throwing(_ errors: [FileError]) throws {
        let ordered = errors.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
        if ordered.count == 1 { throw ordered[0] }
        if ordered.count > 1 { throw FileErrors(errors: ordered) }
    }
}
