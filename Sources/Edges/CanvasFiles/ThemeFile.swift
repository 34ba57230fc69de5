import CanvasStyle
import YAMLDocuments

/// The theme file format (YAML): semantic roles mapped to colours and attributes, with optional
/// explicit choices for 16-colour terminals.
///
/// ```yaml
/// name: dark
/// roles:
///   text: { fg: 252 }
///   titleFocused: { fg: 16, bg: 75, attrs: [bold] }
/// colors16:
///   titleFocused: { fg: black, bg: brightblue, attrs: [bold] }
/// ```
///
/// A colour is a palette number 0–255, `default`, or one of the 16 names (`red`, `brightred`…).
public enum ThemeFile {
    static let colorNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
    static let attributeNames: [String: TextAttributes] = [
        "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
    ]

    public static func parse(_ text: String, file: String) throws -> Theme {
        let reader = YAMLReader(file: file)
        let root = try reader.root(of: text)
        try reader.rejectUnknownKeys(in: root, allowed: ["name", "description", "roles", "colors16"], field: "")
        let name = try reader.string(try reader.required("name", in: root, at: .mapping(root), field: ""), field: "name")
        let roles = try styles(try reader.required("roles", in: root, at: .mapping(root), field: ""), field: "roles", reader: reader)
        let roles16 = try root["colors16"].map { try styles($0, field: "colors16", reader: reader) } ?? [:]
        return Theme(name: name, styles: roles, styles16: roles16)
    }

    private static func styles(_ node: Node, field: String, reader: YAMLReader) throws -> [ThemeRole: Style] {
        var result: [ThemeRole: Style] = [:]
        for (key, value) in try reader.mapping(node, field: field) {
            let name = try reader.string(key, field: field)
            guard let role = ThemeRole(rawValue: name) else {
                throw reader.error(at: key, field: "\(field).\(name)",
                                   "unknown role; expected one of \(ThemeRole.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            result[role] = try style(value, field: "\(field).\(name)", reader: reader)
        }
        return result
    }

    private static func style(_ node: Node, field: String, reader: YAMLReader) throws -> Style {
        let mapping = try reader.mapping(node, field: field)
        try reader.rejectUnknownKeys(in: mapping, allowed: ["fg", "bg", "attrs"], field: field)
        var style = Style()
        if let fg = mapping["fg"] { style.foreground = try color(fg, field: "\(field).fg", reader: reader) }
        if let bg = mapping["bg"] { style.background = try color(bg, field: "\(field).bg", reader: reader) }
        if let attrs = mapping["attrs"] {
            for item in try reader.sequence(attrs, field: "\(field).attrs") {
                let name = try reader.string(item, field: "\(field).attrs")
                guard let attribute = attributeNames[name] else {
                    throw reader.error(at: item, field: "\(field).attrs",
                                       "unknown attribute '\(name)'; expected \(attributeNames.keys.sorted().joined(separator: ", "))")
                }
                style.attributes.insert(attribute)
            }
        }
        return style
    }

    private static func color(_ node: Node, field: String, reader: YAMLReader) throws -> Color {
        let text = try reader.string(node, field: field)
        if let number = Int(text), (0...255).contains(number) { return .palette(UInt8(number)) }
        if text == "default" { return .default }
        let bright = text.hasPrefix("bright")
        if let index = colorNames.firstIndex(of: bright ? String(text.dropFirst(6)) : text) {
            return .ansi(UInt8(index + (bright ? 8 : 0)))
        }
        throw reader.error(at: node, field: field,
                           "expected a colour: 0 to 255, default, or a name such as red or brightblue; got '\(text)'")
    }
}
