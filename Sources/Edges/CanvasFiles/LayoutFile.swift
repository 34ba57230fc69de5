import CanvasCore
import FoundationEssentials
import YAMLDocuments
import PlainText

/// The human-editable layout file format (YAML):
///
/// ```yaml
/// name: planner
/// grid: { columns: 12, rows: 12, minWidth: 2, minHeight: 2 }
/// focused: 1
/// panes:
///   - { id: 1, app: calendar, x: 0, y: 0, width: 5, height: 12, config: { weekStart: monday } }
/// ```
///
/// `grid` and `focused` are optional; `config` and `state` are optional text-to-text mappings.
/// Every mistake is reported with the file, line, column and field; a layout whose panes
/// overlap or leave the grid is rejected naming the pane. Unknown app kinds are kept.
public enum LayoutFile {
    /// Parses and checks a layout file.
    /// - Parameter file: the name used in error messages.
    public static func parse(_ text: String, file: String) throws -> LayoutData {
        let reader = YAMLReader(file: file)
        let root = try reader.root(of: text)
        let rootNode = Node.mapping(root)
        try reader.rejectUnknownKeys(in: root, allowed: ["name", "grid", "focused", "panes"], field: "")
        let nameNode = try reader.required("name", in: root, at: rootNode, field: "")
        let name = try reader.string(nameNode, field: "name")
        guard !name.isEmpty, name.count <= 64, name.trimmingWhitespace() == name else {
            throw reader.error(at: nameNode, field: "name", "expected 1 to 64 characters without spaces at either end")
        }
        var grid = GridSpec.standard
        if let gridNode = root["grid"] {
            let mapping = try reader.mapping(gridNode, field: "grid")
            try reader.rejectUnknownKeys(in: mapping, allowed: ["columns", "rows", "minWidth", "minHeight"], field: "grid")
            let limit = 1...GridSpec.maximumDimension
            if let node = mapping["columns"] { grid.columns = try reader.int(node, field: "grid.columns", in: limit) }
            if let node = mapping["rows"] { grid.rows = try reader.int(node, field: "grid.rows", in: limit) }
            if let node = mapping["minWidth"] { grid.minimumPaneSize.width = try reader.int(node, field: "grid.minWidth", in: 1...grid.columns) }
            if let node = mapping["minHeight"] { grid.minimumPaneSize.height = try reader.int(node, field: "grid.minHeight", in: 1...grid.rows) }
        }
        let paneNodes = try reader.sequence(try reader.required("panes", in: root, at: rootNode, field: ""), field: "panes")
        var panes: [Pane] = []
        for (index, node) in paneNodes.enumerated() {
            panes.append(try pane(node, field: "panes[\(index)]", grid: grid, reader: reader))
        }
        var focused: PaneID?
        if let node = root["focused"] {
            let id = PaneID(try reader.int(node, field: "focused", in: 1...Int(Int32.max)))
            guard panes.contains(where: { $0.id == id }) else {
                throw reader.error(at: node, field: "focused", "no pane has id \(id.rawValue)")
            }
            focused = id
        }
        let layout = LayoutData(name: name, grid: grid, panes: panes, focused: focused)
        do {
            try layout.validate()
        } catch {
            throw reader.error(at: paneNode(for: error, panes: panes, nodes: Array(paneNodes)), field: paneField(for: error, panes: panes),
                               error.description)
        }
        return layout
    }

    /// The layout as file text that `parse` reads back to an equal value.
    public static func export(_ layout: LayoutData) throws -> String {
        func number(_ value: Int) -> YAMLText { .plain(String(value)) }
        func values(_ values: WidgetValues) -> YAMLText {
            .mapping(values.sorted { $0.key < $1.key }.map { ($0.key, .quoted($0.value)) })
        }
        let grid = YAMLText.mapping([
            ("columns", number(layout.grid.columns)), ("rows", number(layout.grid.rows)),
            ("minWidth", number(layout.grid.minimumPaneSize.width)), ("minHeight", number(layout.grid.minimumPaneSize.height)),
        ])
        let panes = YAMLText.sequence(layout.panes.map { pane in
            var pairs: [(String, YAMLText)] = [
                ("id", number(pane.id.rawValue)), ("app", .text(pane.app.rawValue)),
                ("x", number(pane.frame.x)), ("y", number(pane.frame.y)),
                ("width", number(pane.frame.width)), ("height", number(pane.frame.height)),
            ]
            if !pane.config.isEmpty { pairs.append(("config", values(pane.config))) }
            if !pane.state.isEmpty { pairs.append(("state", values(pane.state))) }
            return .mapping(pairs)
        })
        var root: [(String, YAMLText)] = [("name", .quoted(layout.name)), ("grid", grid)]
        if let focused = layout.focused { root.append(("focused", number(focused.rawValue))) }
        root.append(("panes", panes))
        return "# TermCanvas layout\n" + YAMLText.mapping(root).document
    }

    private static func pane(_ node: Node, field: String, grid: GridSpec, reader: YAMLReader) throws -> Pane {
        let mapping = try reader.mapping(node, field: field)
        try reader.rejectUnknownKeys(in: mapping, allowed: ["id", "app", "x", "y", "width", "height", "config", "state"], field: field)
        func int(_ key: String, _ range: ClosedRange<Int>) throws -> Int {
            try reader.int(try reader.required(key, in: mapping, at: node, field: field), field: "\(field).\(key)", in: range)
        }
        let id = try int("id", 1...Int(Int32.max))
        let app = try reader.string(try reader.required("app", in: mapping, at: node, field: field), field: "\(field).app")
        guard !app.isEmpty else { throw reader.error(at: mapping["app"], field: "\(field).app", "expected an app kind such as calendar") }
        let frame = Rect(x: try int("x", 0...(grid.columns - 1)), y: try int("y", 0...(grid.rows - 1)),
                         width: try int("width", 1...grid.columns), height: try int("height", 1...grid.rows))
        let config = try mapping["config"].map { try reader.values($0, field: "\(field).config") } ?? [:]
        let state = try mapping["state"].map { try reader.values($0, field: "\(field).state") } ?? [:]
        return Pane(id: PaneID(id), app: AppKind(app), frame: frame, config: config, state: state)
    }

    /// The pane a validation error is about, for pointing at its line.
    private static func offendingPane(_ error: CanvasError) -> PaneID? {
        switch error {
        case .duplicatePane(let id), .outOfGrid(let id?, _), .belowMinimumSize(let id?, _), .overlap(let id, _): id
        default: nil
        }
    }

    private static func paneNode(for error: CanvasError, panes: [Pane], nodes: [Node]) -> Node? {
        guard let id = offendingPane(error) else { return nil }
        return panes.lastIndex { $0.id == id }.map { nodes[$0] }
    }

    private static func paneField(for error: CanvasError, panes: [Pane]) -> String {
        guard let id = offendingPane(error), let index = panes.lastIndex(where: { $0.id == id }) else { return "panes" }
        return "panes[\(index)]"
    }
}
