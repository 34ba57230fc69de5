/// What a micro-app shows: a tree of nodes the host draws into the app's pane.
///
/// Read leniently, so that old hosts run new apps: an unknown node type becomes `.unknown` (drawn
/// as nothing), an unknown field is ignored, a missing or mistyped field takes its default.
/// Text is kept as the app sent it; the host makes it safe when it draws.
public indirect enum ViewNode: Hashable, Sendable {
    /// Text, split at line breaks and, when `wrap`, wrapped at the pane's width.
    case text(String, role: String?, wrap: Bool)
    /// Rows of which one may be selected; the host scrolls to keep it in view.
    case list(items: [Span], selected: Int?)
    /// Columns with titles and rows of cells; `widths` fixes some column widths.
    case table(columns: [Column], rows: [[String]], selected: Int?)
    /// Aligned key–value pairs.
    case keyValues([KeyValue])
    /// A bar filled to `value` (0…1) with a label and a text such as `42%`.
    case gauge(label: String, value: Double, text: String?, role: String?)
    /// Values drawn as ▁▂▃▄▅▆▇█ from `min` (default: the lowest) to `max` (default: the highest).
    case sparkline(label: String, values: [Double], min: Double?, max: Double?)
    /// A one-line text field the host edits; Enter sends `input.submit` with its id and text.
    case input(id: String, value: String, placeholder: String, label: String)
    /// Children side by side (`columns`) or one under another (`rows`).
    case stack(direction: Direction, children: [StackChild])
    /// Lines of styled spans: the escape hatch for anything else.
    case lines([[Span]])
    /// A node of a type this host does not know; drawn as nothing.
    case unknown(type: String)

    public enum Direction: String, Hashable, Sendable {
        case rows, columns
    }

    /// Text in one semantic theme role (`text`, `muted`, `accent`, `error` …), never a colour.
    public struct Span: Hashable, Sendable {
        public let text: String
        public let role: String?

        public init(_ text: String, role: String? = nil) {
            self.text = text
            self.role = role
        }
    }

    public struct Column: Hashable, Sendable {
        public let title: String
        /// Cells wide; nil shares what is left.
        public let width: Int?
        public let alignRight: Bool

        public init(_ title: String, width: Int? = nil, alignRight: Bool = false) {
            self.title = title
            self.width = width
            self.alignRight = alignRight
        }
    }

    public struct KeyValue: Hashable, Sendable {
        public let key: String
        public let value: String
        public let role: String?

        public init(_ key: String, _ value: String, role: String? = nil) {
            self.key = key
            self.value = value
            self.role = role
        }
    }

    /// A child of a stack with its share of the stack's length: `size` cells, or else a share
    /// of what is left in proportion to `grow`.
    public struct StackChild: Hashable, Sendable {
        public let node: ViewNode
        public let size: Int?
        public let grow: Int

        public init(_ node: ViewNode, size: Int? = nil, grow: Int = 1) {
            self.node = node
            self.size = size
            self.grow = grow
        }
    }

    /// How deep stacks may nest; deeper nodes are read as `.unknown`.
    public static let maximumDepth = 16
    /// How many nodes, rows and spans a view may hold in all; the rest is dropped.
    public static let maximumElements = 20_000
}

extension ViewNode {
    /// Reads a node from its JSON value, leniently (see the type's documentation).
    public init(json: JSONValue) {
        var budget = Self.maximumElements
        self.init(json: json, depth: 0, budget: &budget)
    }

    private init(json: JSONValue, depth: Int, budget: inout Int) {
        budget -= 1
        guard case .object(let object) = json, let type = object["type"]?.string else {
            self = .unknown(type: "")
            return
        }
        guard depth < Self.maximumDepth, budget > 0 else {
            self = .unknown(type: type)
            return
        }
        func text(_ key: String) -> String { object[key]?.string ?? "" }
        switch type {
        case "text":
            self = .text(text("text"), role: object["role"]?.string, wrap: object["wrap"]?.bool ?? true)
        case "list":
            let items = Self.elements(object["items"], budget: &budget).map(Span.init(json:))
            self = .list(items: items, selected: object["selected"]?.int)
        case "table":
            let columns = Self.elements(object["columns"], budget: &budget).map(Column.init(json:))
            let rows = Self.elements(object["rows"], budget: &budget).map { row in
                (row.array ?? []).prefix(columns.count).map { $0.string ?? $0.displayText }
            }
            self = .table(columns: columns, rows: rows, selected: object["selected"]?.int)
        case "kv":
            self = .keyValues(Self.elements(object["items"], budget: &budget).map(KeyValue.init(json:)))
        case "gauge":
            let value = object["value"]?.number ?? 0
            self = .gauge(label: text("label"), value: value.isFinite ? min(1, max(0, value)) : 0,
                          text: object["text"]?.string, role: object["role"]?.string)
        case "sparkline":
            let values = Self.elements(object["values"], budget: &budget).compactMap(\.number).filter(\.isFinite)
            self = .sparkline(label: text("label"), values: values,
                              min: object["min"]?.number.flatMap { $0.isFinite ? $0 : nil },
                              max: object["max"]?.number.flatMap { $0.isFinite ? $0 : nil })
        case "input":
            self = .input(id: text("id"), value: text("value"), placeholder: text("placeholder"), label: text("label"))
        case "stack":
            let direction = Direction(rawValue: object["direction"]?.string ?? "") ?? .rows
            let children = Self.elements(object["children"], budget: &budget).map { child in
                StackChild(ViewNode(json: child, depth: depth + 1, budget: &budget),
                           size: child["size"]?.int.map { max(0, $0) }, grow: max(0, child["grow"]?.int ?? 1))
            }
            self = .stack(direction: direction, children: children)
        case "lines":
            let lines = Self.elements(object["lines"], budget: &budget).map { line in
                Self.elements(line, budget: &budget).map(Span.init(json:))
            }
            self = .lines(lines)
        default:
            self = .unknown(type: type)
        }
    }

    /// The elements of a JSON array, as many as the budget allows.
    private static func elements(_ json: JSONValue?, budget: inout Int) -> [JSONValue] {
        guard let array = json?.array, budget > 0 else { return [] }
        let taken = array.prefix(budget)
        budget -= taken.count
        return Array(taken)
    }
}

extension ViewNode.Span {
    /// A span is `{"text": …, "role": …}` or just a string.
    init(json: JSONValue) {
        self.init(json.string ?? json["text"]?.string ?? "", role: json["role"]?.string)
    }
}

extension ViewNode.Column {
    /// A column is `{"title": …, "width": …, "align": "right"}` or just its title.
    init(json: JSONValue) {
        self.init(json.string ?? json["title"]?.string ?? "", width: json["width"]?.int.map { max(0, $0) },
                  alignRight: json["align"]?.string == "right")
    }
}

extension ViewNode.KeyValue {
    /// A pair is `{"key": …, "value": …, "role": …}` or `[key, value]`.
    init(json: JSONValue) {
        if let pair = json.array {
            self.init(pair.first?.displayText ?? "", pair.dropFirst().first?.displayText ?? "")
        } else {
            self.init(json["key"]?.displayText ?? "", json["value"]?.displayText ?? "", role: json["role"]?.string)
        }
    }
}

extension JSONValue {
    /// A scalar as text (numbers without a needless `.0`); containers as nothing.
    var displayText: String {
        switch self {
        case .string(let string): string
        case .number(let number): int.map(String.init) ?? "\(number)"
        case .bool(let bool): bool ? "true" : "false"
        case .null, .array, .object: ""
        }
    }
}
