import CanvasCore
@testable import CanvasFiles
import Testing

// Shared helpers for the file format tests.

/// Joins lines into file text; line numbers in the tests are 1-based indexes into `lines`.
func text(_ lines: [String]) -> String {
    lines.joined(separator: "\n") + "\n"
}

/// Replaces line `number` (1-based).
func replacing(_ lines: [String], line number: Int, with replacement: String) -> [String] {
    var copy = lines
    copy[number - 1] = replacement
    return copy
}

/// Removes line `number` (1-based).
func removing(_ lines: [String], line number: Int) -> [String] {
    var copy = lines
    copy.remove(at: number - 1)
    return copy
}

/// Inserts a line so that it becomes line `number` (1-based).
func inserting(_ lines: [String], _ newLine: String, asLine number: Int) -> [String] {
    var copy = lines
    copy.insert(newLine, at: number - 1)
    return copy
}

/// What a `FileError` must say: where, which field, and what was expected.
struct ExpectedError: CustomTestStringConvertible, Sendable {
    let label: String
    let text: String
    let line: Int?
    let field: String
    let message: String

    var testDescription: String { label }

    /// Checks the error's parts and that its description names the file, line and field.
    func check(_ error: FileError, file: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.file == file, sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.field == field, sourceLocation: sourceLocation)
        #expect(error.message == message, sourceLocation: sourceLocation)
        if let line {
            let column = error.column.map { ":\($0)" } ?? ""
            let expected = field.isEmpty ? "\(file):\(line)\(column): \(message)" : "\(file):\(line)\(column): \(field): \(message)"
            #expect(error.description == expected, sourceLocation: sourceLocation)
            #expect(error.column.map { $0 >= 1 } ?? true, "columns are 1-based", sourceLocation: sourceLocation)
        } else {
            #expect(error.description == "\(file): \(message)", sourceLocation: sourceLocation)
        }
    }
}

/// Runs `parse` expecting a `FileError`, and returns it.
func fileError(_ parse: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> FileError? {
    do {
        try parse()
        Issue.record("expected a FileError, but parsing succeeded", sourceLocation: sourceLocation)
    } catch let error as FileError {
        return error
    } catch {
        Issue.record("expected a FileError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
