import CanvasCore

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

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [HostAction] {
        let page = Self.page(in: context.area)
        let last = max(0, Self.content(context, filter: filter.text).count - page)
        switch (key.code, key.modifiers) {
        case (.escape, _), (.enter, _), (.function(1), _): return [.close]
        case (.up, []): scroll -= 1
        case (.down, []): scroll += 1
        case (.pageUp, []): scroll -= page
        case (.pageDown, []): scroll += page
        case (.home, []): scroll = 0
        case (.end, []): scroll = last
        default:
            if filter.edit(key) { scroll = 0 }
        }
        scroll = min(max(0, scroll), last)
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let content = Self.content(context, filter: filter.text)
        let page = Self.page(in: context.area)
        let top = min(scroll, max(0, content.count - page))
        let shown = content.isEmpty ? [OverlayLine("No command matches.", .muted)] : Array(content[top..<min(content.count, top + page)])
        let filterLine = filter.text.isEmpty
            ? OverlayLine("Type to filter", .muted)
            : OverlayLine("Filter: " + filter.text + "▏", .accent)
        let position = content.count > page
            ? "Lines \(top + 1)–\(top + shown.count) of \(content.count) · ↑↓ PgUp PgDn Home End scroll · Esc closes"
            : "Esc closes"
        OverlayBox.draw(title: "Help", lines: [filterLine] + shown + [OverlayLine(position, .muted)], into: &buffer, context)
    }

    /// Content lines that fit between the filter line and the position line.
    static func page(in area: Rect) -> Int { max(1, OverlayBox.capacity(in: area) - 2) }

    /// The sections whose commands match `filter`: a heading, then one line per command.
    static func content(_ context: OverlayContext, filter: String) -> [OverlayLine] {
        let table = context.commands
        let arrangeKeys = table.keys(for: .arrange).first.map { " (\($0))" } ?? ""
        var sections: [(heading: String, commands: [Command])] = [
            ("Everywhere", table.commands(in: [.canvas])),
            ("Normal mode", table.commands(in: [.normal])),
            ("Arrange mode\(arrangeKeys)", table.commands(in: [.arrange])),
        ]
        for descriptor in context.catalog.all {
            let commands = table.commands(in: [.widget(descriptor.kind)])
            if !commands.isEmpty { sections.append((descriptor.name, commands)) }
        }
        let needle = filter.lowercased()
        let label = { (command: Command) in
            let keys = table.keys(for: command.id).map(\.description)
            return keys.isEmpty ? "(no key)" : keys.joined(separator: " / ")
        }
        let matching = sections.map { section in
            (section.heading, section.commands.filter { command in
                needle.isEmpty || [command.title, command.id.rawValue, label(command)].contains { $0.lowercased().contains(needle) }
            })
        }.filter { !$0.1.isEmpty }
        let keyWidth = min(24, matching.flatMap(\.1).map { DisplayWidth.of(label($0)) }.max() ?? 0)
        var lines: [OverlayLine] = []
        for (heading, commands) in matching {
            if !lines.isEmpty { lines.append(OverlayLine("")) }
            lines.append(OverlayLine(heading, .heading))
            for command in commands {
                let keys = label(command)
                let pad = String(repeating: " ", count: max(0, keyWidth - DisplayWidth.of(keys)))
                lines.append(OverlayLine("  \(keys)\(pad)  \(command.title)"))
            }
        }
        if needle.isEmpty {
            lines += [OverlayLine(""), OverlayLine("Mouse", .heading),
                      OverlayLine("  A click focuses a pane, the wheel scrolls it."),
                      OverlayLine("  In arrange mode, drag a title to move a pane and its bottom-right corner to resize it.")]
        }
        return lines
    }
}
