import CanvasCore

/// The command palette (Ctrl-P, `:`): a fuzzy search over the commands that apply now, the
/// layouts and the themes; Enter runs the highlighted one. Recently run commands come first.
public struct PaletteOverlay: Overlay, Equatable {
    public var capturesText: Bool { true }
    /// One thing the palette can run.
    public struct Item: Hashable, Sendable {
        public enum Target: Hashable, Sendable {
            case command(CommandID)
            case layout(String)
            case theme(String)
        }

        public let title: String
        /// The keys that run it, as the help shows them; empty for layouts and themes.
        public let keys: String
        public let target: Target
    }

    public private(set) var query = TextField(limit: 80)
    public private(set) var selected = 0
    private var layouts: [String]
    private var themes: [String]

    /// - Parameters: layouts, themes: the names known now; fresher lists may follow.
    public init(layouts: [String] = [], themes: [String] = []) {
        self.layouts = layouts
        self.themes = themes
    }

    public var badge: String? { " COMMAND " }

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        [KeyHint(keys: "type", action: "search"), KeyHint(keys: "↑↓", action: "choose"), KeyHint(keys: "Enter", action: "run"),
         KeyHint(keys: "Esc", action: "close")]
    }

    public mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect] {
        if case .namesListed(let layouts, let themes) = message {
            self.layouts = layouts
            self.themes = themes
        }
        return []
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        let items = items(context)
        let page = Self.page(in: context.area)
        switch (key.code, key.modifiers) {
        case (.escape, _): return [.close]
        case (.enter, _):
            guard items.indices.contains(selected) else { return [] }
            switch items[selected].target {
            case .command(let id): return [.close, .run(id)]
            case .layout(let name): return [.close, .loadLayout(name)]
            case .theme(let name): return [.close, .loadTheme(name, keep: true)]
            }
        case (.up, []): selected -= 1
        case (.down, []): selected += 1
        case (.pageUp, []): selected -= page
        case (.pageDown, []): selected += page
        default:
            guard query.edit(key) else { return [] }
            selected = 0
        }
        selected = min(max(0, selected), max(0, self.items(context).count - 1))
        return []
    }

    /// What the query matches, best first; with no query, recent commands first, then the
    /// table's order, then layouts and themes. Commands that would do nothing now are left out.
    /// Arrange mode's commands are offered in normal mode too: running one enters arrange mode.
    public func items(_ context: OverlayContext) -> [Item] {
        let table = context.commands
        let contexts = context.contexts.contains(.normal) && !context.contexts.contains(.arrange)
            ? context.contexts + [.arrange] : context.contexts
        let commands = table.commands(in: contexts).filter { $0.id != .palette && !context.idle.contains($0.id) }
        let all = commands.map { command in
            Item(title: command.title, keys: table.keys(for: command.id).map(\.description).joined(separator: " / "),
                 target: .command(command.id))
        } + layouts.map { Item(title: "layout: \($0)", keys: "", target: .layout($0)) }
            + themes.map { Item(title: "theme: \($0)", keys: "", target: .theme($0)) }
        let recency = { (item: Item) -> Int in
            guard case .command(let id) = item.target, let index = context.recentCommands.firstIndex(of: id) else { return Int.max }
            return index
        }
        let scored = all.enumerated().compactMap { index, item -> (item: Item, score: Int, recency: Int, index: Int)? in
            guard let score = Self.score(query.text, item) else { return nil }
            return (item, score, recency(item), index)
        }
        return scored.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.recency != b.recency { return a.recency < b.recency }
            return a.index < b.index
        }.map(\.item)
    }

    private static func score(_ query: String, _ item: Item) -> Int? {
        let byTitle = FuzzyMatch.score(query, in: item.title)
        guard case .command(let id) = item.target, let byID = FuzzyMatch.score(query, in: id.rawValue) else { return byTitle }
        return max(byTitle ?? Int.min, byID - 1)
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let items = items(context)
        let page = Self.page(in: context.area)
        let top = min(max(0, selected - page + 1), max(0, items.count - page))
        let width = min(max(20, context.area.width - 8), 72)
        var lines = [OverlayLine.field("> ", query, .accent)]
        if items.isEmpty { lines.append(OverlayLine("Nothing matches.", .muted)) }
        for (offset, item) in items[top..<min(items.count, top + page)].enumerated() {
            let keyWidth = DisplayWidth.of(item.keys)
            let titleRoom = max(1, width - keyWidth - 2)
            let title = DisplayWidth.clipped(item.title, to: titleRoom)
            let pad = String(repeating: " ", count: max(1, width - DisplayWidth.of(title) - keyWidth))
            lines.append(OverlayLine(title + pad + item.keys, top + offset == selected ? .selection : .overlay))
        }
        lines.append(OverlayLine("\(items.count) \(items.count == 1 ? "match" : "matches") · Enter runs · Esc closes", .muted))
        OverlayBox.draw(title: "Commands", lines: lines, into: &buffer, context)
    }

    /// Items shown at once: the box less the query and footer lines.
    static func page(in area: Rect) -> Int { max(1, OverlayBox.capacity(in: area) - 2) }
}
