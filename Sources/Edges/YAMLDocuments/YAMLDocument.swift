internal import CLibYAML

/// What is wrong with a YAML text, with where.
public enum YAMLError: Error, Equatable, Sendable {
    /// libyaml could not read, scan or parse it: its `problem` at `mark`, and what it was in the
    /// middle of (`context`, e.g. "while parsing a flow mapping") and where that began.
    case syntax(problem: String, mark: Mark?, context: String?, contextMark: Mark?)
    /// Keys that appear more than once in one mapping (sorted), and where the first of them is.
    case duplicateKeys([String], mark: Mark)
    /// An alias (`*name`): not allowed (see `YAMLDocument.compose`).
    case alias(mark: Mark)
    /// Lists and mappings nested deeper than `YAMLDocument.depthLimit`.
    case nestedTooDeeply(mark: Mark)
}

/// Composes a YAML text into nodes from libyaml's events.
public enum YAMLDocument {
    /// How deep lists and mappings may nest: composing recurses once a level. (libyaml itself stops
    /// at 1000 levels; the product's files need a handful.)
    public static let depthLimit = 64

    /// The text's one document; nil when it holds none (only comments, or nothing).
    ///
    /// Aliases (`*name`) are refused: they have no use in the product's files, and they are how a
    /// small file grows without end ("billion laughs"). Anchors are allowed and ignored. Tags are
    /// not resolved.
    /// - Throws: `YAMLError`.
    public static func compose(_ text: String) throws(YAMLError) -> Node? {
        let bytes = Array(text.utf8)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw .syntax(problem: "out of memory", mark: nil, context: nil, contextMark: nil)
        }
        defer { yaml_parser_delete(&parser) }
        return try withUnsafeMutablePointer(to: &parser) { (pointer) throws(YAMLError) -> Node? in
            try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> Node? in
                yaml_parser_set_input_string(pointer, buffer.baseAddress, buffer.count)
                return try Composer(parser: pointer).document()
            }
        }
    }
}

/// Reads events one at a time and builds the nodes they describe.
private struct Composer {
    let parser: UnsafeMutablePointer<yaml_parser_t>

    /// What one event says, copied out of libyaml's event before it is freed.
    enum Event {
        case streamStart, streamEnd, documentStart, documentEnd
        case scalar(String)
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd
        case alias
    }

    func document() throws(YAMLError) -> Node? {
        _ = try next()  // the stream's start
        guard case .documentStart = try next().0 else { return nil }  // the stream's end: no document
        let (first, mark) = try next()
        let root = try node(first, mark: mark, depth: 0)
        _ = try next()  // the document's end
        let (after, at) = try next()
        if case .documentStart = after {
            throw .syntax(problem: "but found another document", mark: at, context: "expected a single document in the stream",
                          contextMark: Mark(line: 1, column: 1))
        }
        return root
    }

    private func node(_ event: Event, mark: Mark, depth: Int) throws(YAMLError) -> Node {
        guard depth < YAMLDocument.depthLimit else { throw .nestedTooDeeply(mark: mark) }
        switch event {
        case .scalar(let text):
            return .scalar(Node.Scalar(string: text, mark: mark))
        case .sequenceStart:
            var items: [Node] = []
            while true {
                let (next, at) = try next()
                if case .sequenceEnd = next { break }
                items.append(try node(next, mark: at, depth: depth + 1))
            }
            return .sequence(Node.Sequence(items: items, mark: mark))
        case .mappingStart:
            var pairs: [(key: Node, value: Node)] = []
            while true {
                let (next, at) = try next()
                if case .mappingEnd = next { break }
                let key = try node(next, mark: at, depth: depth + 1)
                let (valueEvent, valueMark) = try self.next()
                pairs.append((key, try node(valueEvent, mark: valueMark, depth: depth + 1)))
            }
            try Self.checkDuplicates(pairs)
            return .mapping(Node.Mapping(pairs: pairs, mark: mark))
        case .alias:
            throw .alias(mark: mark)
        case .streamStart, .streamEnd, .documentStart, .documentEnd, .sequenceEnd, .mappingEnd:
            throw .syntax(problem: "unexpected event", mark: mark, context: nil, contextMark: nil)  // libyaml never sends these here
        }
    }

    /// Scalar keys that appear more than once: the alphabetically first, at its first place.
    private static func checkDuplicates(_ pairs: [(key: Node, value: Node)]) throws(YAMLError) {
        var seen: [String: Mark] = [:]
        var duplicated: [String: Mark] = [:]
        for case (.scalar(let key), _) in pairs {
            if let first = seen[key.string] { duplicated[key.string] = first } else { seen[key.string] = key.mark }
        }
        guard let first = duplicated.keys.min(), let mark = duplicated[first] else { return }
        throw .duplicateKeys(duplicated.keys.sorted(), mark: mark)
    }

    /// The next event and where it starts.
    private func next() throws(YAMLError) -> (Event, Mark) {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw Self.error(of: parser.pointee) }
        defer { yaml_event_delete(&event) }
        let mark = Mark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        let kind: Event = switch event.type {
        case YAML_STREAM_START_EVENT: .streamStart
        case YAML_STREAM_END_EVENT: .streamEnd
        case YAML_DOCUMENT_START_EVENT: .documentStart
        case YAML_DOCUMENT_END_EVENT: .documentEnd
        case YAML_SCALAR_EVENT:
            .scalar(String(decoding: UnsafeBufferPointer(start: event.data.scalar.value, count: event.data.scalar.length), as: UTF8.self))
        case YAML_SEQUENCE_START_EVENT: .sequenceStart
        case YAML_SEQUENCE_END_EVENT: .sequenceEnd
        case YAML_MAPPING_START_EVENT: .mappingStart
        case YAML_MAPPING_END_EVENT: .mappingEnd
        case YAML_ALIAS_EVENT: .alias
        default: .streamEnd
        }
        return (kind, mark)
    }

    private static func error(of parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "cannot be read"
        // A reader error (bytes that are not UTF-8, or characters YAML does not allow) has an
        // offset, not a line.
        guard parser.error != YAML_READER_ERROR else { return .syntax(problem: problem, mark: nil, context: nil, contextMark: nil) }
        let mark = Mark(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
        let context = parser.context.map { String(cString: $0) }
        let contextMark = context.map { _ in Mark(line: Int(parser.context_mark.line) + 1, column: Int(parser.context_mark.column) + 1) }
        return .syntax(problem: problem, mark: mark, context: context, contextMark: contextMark)
    }
}
