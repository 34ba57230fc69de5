/// Where something is in a YAML text: line and column, both from 1.
public struct Mark: Equatable, Sendable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A YAML document as composed by `YAMLDocument.compose`: scalars keep their text as written
/// (no tags are resolved: every field is read from its text by its reader's own rules), and every
/// node keeps where it starts, for errors that point at it.
public enum Node: Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    public struct Scalar: Sendable {
        public let string: String
        public let mark: Mark
    }

    /// Key and value pairs in the order written.
    public struct Mapping: RandomAccessCollection, Sendable {
        public let pairs: [(key: Node, value: Node)]
        public let mark: Mark

        public var startIndex: Int { pairs.startIndex }
        public var endIndex: Int { pairs.endIndex }
        public subscript(position: Int) -> (key: Node, value: Node) { pairs[position] }

        /// The value of the first key whose text is `key`.
        public subscript(key: String) -> Node? {
            pairs.first { $0.key.string == key }?.value
        }

        public var keys: [Node] { pairs.map(\.key) }
    }

    public struct Sequence: RandomAccessCollection, Sendable {
        public let items: [Node]
        public let mark: Mark

        public var startIndex: Int { items.startIndex }
        public var endIndex: Int { items.endIndex }
        public subscript(position: Int) -> Node { items[position] }
    }

    /// Where the node starts.
    public var mark: Mark? {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let sequence): sequence.mark
        }
    }

    /// A scalar's text; nil for a mapping or a list.
    public var string: String? {
        if case .scalar(let scalar) = self { scalar.string } else { nil }
    }
}
