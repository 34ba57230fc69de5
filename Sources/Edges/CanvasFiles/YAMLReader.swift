import YAMLDocuments

/// Reads a YAML document field by field, turning every mistake into a `FileError` that names
/// the file, the line and column, and the field.
struct YAMLReader {
    let file: String

    /// Parses the document; the root must be a mapping.
    func root(of text: String) throws -> Node.Mapping {
        guard let root = try optionalRoot(of: text) else {
            throw FileError(file: file, line: nil, column: nil, field: "", message: "the file is empty")
        }
        return root
    }

    /// Parses the document; nil when it holds nothing (only comments), else the root must be a mapping.
    func optionalRoot(of text: String) throws -> Node.Mapping? {
        let node: Node?
        do {
            // Tags are not resolved: every field is read from its text here, with its own rules.
            node = try YAMLDocument.compose(text)
        } catch {
            throw fileError(error)
        }
        return try node.map { try mapping($0, field: "") }
    }

    func mapping(_ node: Node, field: String) throws -> Node.Mapping {
        guard case .mapping(let mapping) = node else { throw error(at: node, field: field, "expected a mapping of keys to values") }
        return mapping
    }

    func sequence(_ node: Node, field: String) throws -> Node.Sequence {
        guard case .sequence(let sequence) = node else { throw error(at: node, field: field, "expected a list") }
        return sequence
    }

    func string(_ node: Node, field: String) throws -> String {
        guard case .scalar(let scalar) = node else { throw error(at: node, field: field, "expected text") }
        return scalar.string
    }

    func int(_ node: Node, field: String, in range: ClosedRange<Int>) throws -> Int {
        guard case .scalar(let scalar) = node, let value = Int(scalar.string), range.contains(value) else {
            throw error(at: node, field: field,
                        "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(describe(node))")
        }
        return value
    }

    /// A flat mapping of text keys to text values (widget config and state).
    func values(_ node: Node, field: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in try mapping(node, field: field) {
            let name = try string(key, field: field)
            result[name] = try string(value, field: "\(field).\(name)")
        }
        return result
    }

    /// The value of a required key.
    func required(_ key: String, in mapping: Node.Mapping, at node: Node, field: String) throws -> Node {
        guard let value = mapping[key] else {
            throw error(at: node, field: join(field, key), "is missing")
        }
        return value
    }

    /// Rejects keys the format does not know, so a typo is reported instead of silently ignored.
    func rejectUnknownKeys(in mapping: Node.Mapping, allowed: Set<String>, field: String) throws {
        for key in mapping.keys {
            let name = key.string ?? "?"
            guard allowed.contains(name) else {
                throw error(at: key, field: join(field, name), "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
            }
        }
    }

    func error(at node: Node?, field: String, _ message: String) -> FileError {
        FileError(file: file, line: node?.mark?.line, column: node?.mark?.column, field: field, message: message)
    }

    func join(_ field: String, _ key: String) -> String {
        field.isEmpty ? key : "\(field).\(key)"
    }

    private func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): "'\(scalar.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// What libyaml's context names as left open, in a reader's words.
    private static func opened(_ context: String) -> String? {
        if context.contains("flow mapping") { return "{" }
        if context.contains("flow sequence") { return "[" }
        if context.contains("quoted scalar") { return "quote" }
        return nil
    }

    private func fileError(_ error: YAMLError) -> FileError {
        switch error {
        case .syntax(let problem, let mark, let context, let contextMark):
            // An unclosed brace, bracket or quote is found where the parser gives up, often the
            // file's end: point at where it was opened, which is where the mistake is.
            if let context, let contextMark, let mark, contextMark.line != mark.line, let opened = Self.opened(context) {
                FileError(file: file, line: contextMark.line, column: contextMark.column, field: "",
                          message: "not valid YAML: this \(opened) is not closed (\(problem) at line \(mark.line))")
            } else {
                FileError(file: file, line: mark?.line, column: mark?.column, field: "", message: "not valid YAML: \(problem)")
            }
        case .duplicateKeys(let keys, let mark):
            FileError(file: file, line: mark.line, column: mark.column, field: keys.joined(separator: ", "), message: "the key appears twice")
        case .alias(let mark):
            FileError(file: file, line: mark.line, column: mark.column, field: "",
                      message: "aliases (*name) are not allowed in this file; write the value out")
        case .nestedTooDeeply(let mark):
            FileError(file: file, line: mark.line, column: mark.column, field: "",
                      message: "lists and mappings are nested more than \(YAMLDocument.depthLimit) deep; this file needs far fewer")
        }
    }
}
