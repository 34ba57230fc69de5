import CanvasCore
import CanvasStyle

/// Help (`?`, F1): every command and its keys, read from the command table, in sections by where
/// they apply. It scrolls, and typing filters it.
public struct HelpOverlay: Overlay, Equatable {
    public private(set) var filter = TextField(limit: 64)
    /// The first content line shown.
    public private(set) var scroll = 0

    public init() {}

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        [KeyHint(keys: "↑↓ PgUp PgDn", action: "scroll"), KeyHint(keys: "type", action: "filter"), KeyHint(keys: "Esc", action: "close")]
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        let page = Self.page(in: context.area)
        let last = max(0, Self.content(context, filter: filter.text).count - page)
        // A help key that types nothing (F1) closes it too; `?` goes to the filter.
        if key.text == nil, context.commands.command(for: key, in: [.canvas])?.id == .help { return [.close] }
        if key.code == .escape || key.code == .enter { return [.close] }
        if let top = OverlayScroll.top(after: key, from: scroll, page: page, last: last) {
            scroll = top
        } else if filter.edit(key) {
            scroll = 0
        }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let content = Self.content(context, filter: filter.text)
        let page = Self.page(in: context.area)
        let top = min(scroll, max(0, content.count - page))
        let shown = content.isEmpty ? [OverlayLine("No command matches.", .muted)] : Array(content[top..<min(content.count, top + page)])
        let filterLine = filter.text.isEmpty
            ? OverlayLine("Type to filter", .muted, cursor: 0)
            : OverlayLine.field("Filter: ", filter, .accent)
        let position = content.count > page
            ? "Lines \(top + 1)–\(top + shown.count) of \(content.count) · ↑↓ PgUp PgDn Home End scroll · Esc closes"
            : "Esc closes"
        OverlayBox.draw(title: "Help", lines: [filterLine] + shown + [OverlayLine(position, .muted)], into: &buffer, context)
    }

    /// Content lines that fit between the filter line and the position line.
    static func page(in area: Rect) -> Int { max(1, OverlayBox.capacity(in: area) - 2) }

    /// The sections whose entries match `filter`: a heading, then each command with its keys,
    /// a long title wrapped under itself so the box fits the canvas.
    static func content(_ context: OverlayContext, filter: String) -> [OverlayLine] {
        let table = context.commands
        let arrangeKeys = table.keys(for: .arrange).first.map { " (\($0))" } ?? ""
        let entries = { (commands: [Command]) in
            commands.map { command in
                let keys = table.keys(for: command.id).map(\.description)
                return (keys: keys.isEmpty ? "(no key)" : keys.joined(separator: " / "), title: command.title, id: command.id.rawValue)
            }
        }
        var sections = [
            ("Everywhere", entries(table.commands(in: [.canvas]))),
            ("Normal mode", entries(table.commands(in: [.normal]))),
            ("Arrange mode\(arrangeKeys)", entries(table.commands(in: [.arrange]))),
            ("Any micro-app you added", entries(table.commands(in: [.microApp]))),
        ]
        for descriptor in context.catalog.all {
            let commands = table.commands(in: [.widget(descriptor.kind)])
            if !commands.isEmpty { sections.append((descriptor.name, entries(commands))) }
        }
        sections.append(("Mouse", [
            ("click", "Focus the pane under the pointer", ""), ("wheel", "Scroll the pane under the pointer", ""),
            ("drag a title", "Move the pane (arrange mode)", ""), ("drag a corner", "Resize the pane from its bottom-right corner (arrange mode)", ""),
        ]))
        let needle = filter.lowercased()
        let matching = sections.map { heading, rows in
            (heading, rows.filter { row in needle.isEmpty || [row.keys, row.title, row.id].contains { $0.lowercased().contains(needle) } })
        }.filter { !$0.1.isEmpty }
        let keyWidth = min(24, matching.flatMap(\.1).map { DisplayWidth.of($0.keys) }.max() ?? 0)
        // The box's inside less the space each line starts with.
        let titleWidth = max(10, context.area.width - 4 - (2 + keyWidth + 2))
        var lines: [OverlayLine] = []
        for (heading, rows) in matching {
            if !lines.isEmpty { lines.append(OverlayLine("")) }
            lines.append(OverlayLine(heading, .heading))
            for row in rows {
                let pad = String(repeating: " ", count: max(0, keyWidth - DisplayWidth.of(row.keys)))
                for (index, part) in TextWrap.lines(row.title, width: titleWidth).enumerated() {
                    let lead = index == 0 ? "  \(row.keys)\(pad)  " : String(repeating: " ", count: 2 + keyWidth + 2)
                    lines.append(OverlayLine(lead + part))
                }
            }
        }
        return lines
    }
}
