/// What a micro-app shows: a tree of nodes the host draws into the app's pane.
///
/// Read leniently, so that old hosts run new apps: an unknown node type becomes `.unknown` (drawn
/// as nothing), an unknown field is ignored, a missing or mistyped field takes its default.
/// Numbers are read strictly, since the host sizes and indexes with them: a number out of its
/// range (`Limits`) makes its node `.refused`, which the pane shows and the app's log explains.
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
    /// A node with a number out of its range: drawn as a line that says so, never as the app
    /// meant it. `reason` names the field and the range (`size is -3, not an integer in 0…10000`).
    case refused(type: String, reason: String)

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

    /// The ranges numbers in a node must lie in; anything else refuses the node.
    public enum Limits {
        /// A stack child's `size` and a column's `width`, in cells: more than any terminal has.
        public static let extent = 0...10_000
        /// A stack child's `grow`.
        public static let grow = 0...1_000
        /// A list's or table's `selected` row; -1 (or null) selects none.
        public static let selected = -1...ViewNode.maximumElements
        /// A sparkline's `values`, `min` and `max`, and a gauge's `value` (then drawn clamped to
        /// 0…1): finite, and small enough that their differences are finite too.
        public static let magnitude = 1e300
        /// A view's `revision`.
        public static let revision = 0...1_000_000_000_000_000
    }

    /// True when the tree holds a text node of exactly `text`.
    public func holdsText(_ text: String) -> Bool {
        switch self {
        case .text(let own, _, _): own == text
        case .stack(_, let children): children.contains { $0.node.holdsText(text) }
        default: false
        }
    }

    /// Why each refused node in the tree was refused, as `type: reason`, in drawing order.
    public var refusals: [String] {
        switch self {
        case .refused(let type, let reason): ["\(type): \(reason)"]
        case .stack(_, let children): children.flatMap(\.node.refusals)
        default: []
        }
    }
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
        do throws(NumberRefusal) {
            self = try Self.read(type: type, object, depth: depth, budget: &budget)
        } catch {
            self = .refused(type: type, reason: error.reason)
        }
    }

    private static func read(type: String, _ object: [String: JSONValue], depth: Int,
                             budget: inout Int) throws(NumberRefusal) -> ViewNode {
        func text(_ key: String) -> String { object[key]?.string ?? "" }
        switch type {
        case "text":
            return .text(text("text"), role: object["role"]?.string, wrap: object["wrap"]?.bool ?? true)
        case "list":
            let items = elements(object["items"], budget: &budget).map(Span.init(json:))
            return .list(items: items, selected: try selected(object["selected"]))
        case "table":
            var columns: [Column] = []
            for (index, column) in elements(object["columns"], budget: &budget).enumerated() {
                columns.append(try Column(json: column, index: index))
            }
            let rows = elements(object["rows"], budget: &budget).map { row in
                (row.array ?? []).prefix(columns.count).map { $0.string ?? $0.displayText }
            }
            return .table(columns: columns, rows: rows, selected: try selected(object["selected"]))
        case "kv":
            return .keyValues(elements(object["items"], budget: &budget).map(KeyValue.init(json:)))
        case "gauge":
            let value = try plotted(object["value"], field: "value") ?? 0
            return .gauge(label: text("label"), value: min(1, max(0, value)), text: object["text"]?.string, role: object["role"]?.string)
        case "sparkline":
            var values: [Double] = []
            for (index, element) in elements(object["values"], budget: &budget).enumerated() {
                if let value = try plotted(element, field: "values[\(index)]") { values.append(value) }
            }
            return .sparkline(label: text("label"), values: values, min: try plotted(object["min"], field: "min"),
                              max: try plotted(object["max"], field: "max"))
        case "input":
            return .input(id: text("id"), value: text("value"), placeholder: text("placeholder"), label: text("label"))
        case "stack":
            let direction = Direction(rawValue: object["direction"]?.string ?? "") ?? .rows
            var children: [StackChild] = []
            for child in elements(object["children"], budget: &budget) {
                // A child's own numbers refuse the child, not the stack around it.
                let node = ViewNode(json: child, depth: depth + 1, budget: &budget)
                do throws(NumberRefusal) {
                    children.append(StackChild(node, size: try integer(child["size"], field: "size", in: Limits.extent),
                                               grow: try integer(child["grow"], field: "grow", in: Limits.grow) ?? 1))
                } catch {
                    children.append(StackChild(.refused(type: child["type"]?.string ?? "", reason: error.reason), size: 1))
                }
            }
            return .stack(direction: direction, children: children)
        case "lines":
            let lines = elements(object["lines"], budget: &budget).map { line in
                elements(line, budget: &budget).map(Span.init(json:))
            }
            return .lines(lines)
        default:
            return .unknown(type: type)
        }
    }

    /// A list's or table's selected row: nil when absent, null or -1.
    private static func selected(_ json: JSONValue?) throws(NumberRefusal) -> Int? {
        try integer(json, field: "selected", in: Limits.selected).flatMap { $0 < 0 ? nil : $0 }
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
    init(json: JSONValue, index: Int) throws(ViewNode.NumberRefusal) {
        self.init(json.string ?? json["title"]?.string ?? "",
                  width: try ViewNode.integer(json["width"], field: "columns[\(index)].width", in: ViewNode.Limits.extent),
                  alignRight: json["align"]?.string == "right")
    }
}

extension ViewNode {
    /// Why a node's number was refused.
    struct NumberRefusal: Error {
        let reason: String
    }

    /// A whole number in `range`; nil when the field is absent or not a number (lenient, like
    /// every mistyped field), a refusal when it is a number of any other value.
    static func integer(_ json: JSONValue?, field: String, in range: ClosedRange<Int>) throws(NumberRefusal) -> Int? {
        guard let json, json.number != nil else { return nil }
        guard let value = json.int, range.contains(value) else {
            throw NumberRefusal(reason: "\(field) is \(json.displayText), not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// A value to plot; nil when absent or not a number, a refusal when beyond ±`Limits.magnitude`.
    static func plotted(_ json: JSONValue?, field: String) throws(NumberRefusal) -> Double? {
        guard let json, let number = json.number else { return nil }
        guard number.isFinite, abs(number) <= Limits.magnitude else {
            throw NumberRefusal(reason: "\(field) is \(json.displayText), beyond ±1e300")
        }
        return number
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
