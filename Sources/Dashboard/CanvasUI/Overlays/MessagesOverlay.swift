import CanvasCore
import CanvasStyle

/// Messages (Ctrl-G, and in the palette): every notice of this session in full, newest first,
/// each wrapped to the box; errors in the warning colour. It scrolls.
public struct MessagesOverlay: Overlay, Equatable {
    public let entries: [NoticeLog.Entry]
    /// The first content line shown.
    public private(set) var scroll = 0

    public init(entries: [NoticeLog.Entry]) {
        self.entries = entries
    }

    public var badge: String? { " MESSAGES " }

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        [KeyHint(keys: "↑↓ PgUp PgDn", action: "scroll"), KeyHint(keys: "Esc", action: "close")]
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        let page = Self.page(in: context.area)
        if key.code == .escape || key.code == .enter { return [.close] }
        if key.text == nil, context.commands.command(for: key, in: [.canvas])?.id == .messages { return [.close] }
        let last = max(0, content(width: Self.width(in: context.area)).count - page)
        if let top = OverlayScroll.top(after: key, from: scroll, page: page, last: last) { scroll = top }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let content = content(width: Self.width(in: context.area))
        let page = Self.page(in: context.area)
        let top = min(scroll, max(0, content.count - page))
        let shown = Array(content[top..<min(content.count, top + page)])
        let position = content.count > page
            ? "Lines \(top + 1)–\(top + shown.count) of \(content.count) · ↑↓ PgUp PgDn Home End scroll · Esc closes"
            : "Esc closes"
        OverlayBox.draw(title: "Messages", lines: shown + [OverlayLine(position, .muted)], into: &buffer, context)
    }

    /// Each notice, newest first: its time, then its text wrapped under itself.
    func content(width: Int) -> [OverlayLine] {
        guard !entries.isEmpty else { return [OverlayLine("No messages yet: what the status bar says is kept here for this session.", .muted)] }
        let indent = String(repeating: " ", count: 9)
        return entries.reversed().flatMap { entry in
            TextWrap.lines(entry.notice.text, width: max(10, width - indent.count)).enumerated().map { index, part in
                OverlayLine((index == 0 ? entry.time + " " : indent) + part, entry.notice.kind == .error ? .error : .overlay)
            }
        }
    }

    /// Content lines that fit above the position line.
    static func page(in area: Rect) -> Int { max(1, OverlayBox.capacity(in: area) - 1) }
    /// The width a line may take inside the box.
    static func width(in area: Rect) -> Int { max(10, area.width - 4) }
}
