import FoundationEssentials
import PlainText

/// The fixed format the model answers in, and its parser:
///
/// ```
/// === FILE: app.yaml ===
/// id: …
/// === FILE: app.py ===
/// …
/// === END ===
/// ```
///
/// Lenient where models stray harmlessly (text before the first marker, a Markdown fence around a
/// file), strict about what matters (both files, nothing else, the script's name).
enum AnswerFormat {
    static let manifestName = "app.yaml"
    static let end = "=== END ==="

    static func marker(_ file: String) -> String { "=== FILE: \(file) ===" }

    struct Files: Equatable {
        var manifest: String
        var script: String
    }

    static func parse(_ answer: String, scriptName: String) throws(GenerationProblem) -> Files {
        var files: [String: [Substring]] = [:]
        var order: [String] = []
        var current: String?
        var ended = false
        // `\.isNewline`: in Swift "\r\n" is one character, which splitting at "\n" would not split.
        for line in answer.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace()
            if trimmed == end {
                ended = true
                break
            }
            if trimmed.hasPrefix("=== FILE:"), trimmed.hasSuffix("===") {
                let name = trimmed.dropFirst("=== FILE:".count).dropLast(3).trimmingWhitespace()
                guard files[name] == nil else { throw GenerationProblem("the answer has \(name) twice") }
                files[name] = []
                order.append(name)
                current = name
                continue
            }
            if let current { files[current]?.append(line) }
        }
        guard !order.isEmpty else {
            throw GenerationProblem("the answer has no '\(marker(manifestName))' line: give each file after its marker line, then '\(end)'")
        }
        guard ended else { throw GenerationProblem("the answer does not end with a '\(end)' line") }
        let unexpected = order.filter { $0 != manifestName && $0 != scriptName }
        guard unexpected.isEmpty else {
            throw GenerationProblem("the answer has \(unexpected.joined(separator: ", ")); only \(manifestName) and \(scriptName) are wanted")
        }
        guard let manifest = files[manifestName] else { throw GenerationProblem("the answer has no \(manifestName)") }
        guard let script = files[scriptName] else { throw GenerationProblem("the answer has no \(scriptName)") }
        return Files(manifest: unfenced(manifest), script: unfenced(script))
    }

    /// A file's lines without blank lines around them and without a Markdown fence around them.
    private static func unfenced(_ lines: [Substring]) -> String {
        var lines = lines.drop { $0.trimmingWhitespace().isEmpty }
        while let last = lines.last, last.trimmingWhitespace().isEmpty { lines = lines.dropLast() }
        if let first = lines.first, first.hasPrefix("```"), let last = lines.last, last.trimmingWhitespace() == "```",
           lines.count >= 2 {
            lines = lines.dropFirst().dropLast()
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Why an answer could not be used; sent back to the model as it is.
public struct GenerationProblem: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
