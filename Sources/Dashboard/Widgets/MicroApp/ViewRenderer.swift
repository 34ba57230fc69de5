import CanvasCore
import CanvasStyle
import CanvasUI
import MicroAppProtocol

/// Draws a micro-app's view tree into its pane's buffer. Every string goes through `Buffer.write`,
/// which draws control characters as visible placeholders; roles are looked up in the theme
/// (an unknown role is `text`), so no app chooses a colour or reaches the terminal.
struct ViewRenderer {
    let theme: Theme
    let focused: Bool
    /// The host-edited text of each `input` node, by id.
    let inputs: [String: TextField]
    /// The input that keys type into (the view's first) while the pane has the focus: the
    /// terminal's cursor is shown in it.
    var typingIn: String? = nil

    static let sparkBlocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    func draw(_ node: ViewNode, in rect: Rect, into buffer: inout Buffer) {
        guard !rect.isEmpty else { return }
        switch node {
        case .text(let text, let role, let wrap):
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).flatMap { line in
                wrap ? TextWrap.lines(String(line), width: rect.width) : [String(line)]
            }
            for (row, line) in lines.prefix(rect.height).enumerated() {
                buffer.write(line, at: Point(x: rect.minX, y: rect.minY + row), style: style(role), clip: rect)
            }
        case .list(let items, let selected):
            let first = Self.firstVisible(selected: selected, count: items.count, height: rect.height)
            for (row, item) in items.dropFirst(first).prefix(rect.height).enumerated() {
                let y = rect.minY + row
                let isSelected = first + row == selected
                if isSelected { buffer.fill(rowRect(rect, y), with: Cell(" ", style: selectionStyle)) }
                buffer.write(item.text, at: Point(x: rect.minX, y: y), style: isSelected ? selectionStyle : style(item.role), clip: rect)
            }
        case .table(let columns, let rows, let selected):
            drawTable(columns: columns, rows: rows, selected: selected, in: rect, into: &buffer)
        case .keyValues(let pairs):
            let keyWidth = min(rect.width / 2, pairs.map { DisplayWidth.of($0.key) }.max() ?? 0)
            for (row, pair) in pairs.prefix(rect.height).enumerated() {
                let y = rect.minY + row
                buffer.write(pair.key, at: Point(x: rect.minX, y: y), style: theme[.muted],
                             clip: Rect(x: rect.minX, y: y, width: keyWidth, height: 1))
                buffer.write(pair.value, at: Point(x: rect.minX + keyWidth + 1, y: y), style: style(pair.role), clip: rect)
            }
        case .gauge(let label, let value, let text, let role):
            drawGauge(label: label, value: value, text: text, role: role, in: rect, into: &buffer)
        case .sparkline(let label, let values, let low, let high):
            var x = rect.minX
            if !label.isEmpty { x = buffer.write(label + " ", at: Point(x: x, y: rect.minY), style: theme[.muted], clip: rect) }
            let room = max(0, rect.maxX - x)
            buffer.write(Self.sparkline(values.suffix(room), low: low, high: high), at: Point(x: x, y: rect.minY),
                         style: theme[.accent], clip: rect)
        case .input(let id, let value, let placeholder, let label):
            var line = Buffer(size: Size(width: rect.width, height: 1))
            let field = inputs[id] ?? TextField(value)
            if field.text.isEmpty, !placeholder.isEmpty, !focused {
                let x = line.write(label.isEmpty ? "" : label + " ", at: .zero, style: theme[.accent])
                line.write(placeholder, at: Point(x: x, y: 0), style: theme[.muted])
            } else {
                var input = InlineInput(prompt: label.isEmpty ? "> " : label + " ")
                input.field = field
                input.draw(into: &line, row: 0, theme: theme)
                if !focused || id != typingIn { line.cursor = nil }
            }
            buffer.draw(line, at: rect.origin)
        case .stack(let direction, let children):
            let length = direction == .rows ? rect.height : rect.width
            var offset = 0
            for (child, size) in zip(children, Self.share(length, among: children)) where size > 0 {
                let part = direction == .rows
                    ? Rect(x: rect.minX, y: rect.minY + offset, width: rect.width, height: size)
                    : Rect(x: rect.minX + offset, y: rect.minY, width: size, height: rect.height)
                draw(child.node, in: part, into: &buffer)
                offset += size
            }
        case .lines(let lines):
            for (row, spans) in lines.prefix(rect.height).enumerated() {
                var x = rect.minX
                for span in spans where x < rect.maxX {
                    x = buffer.write(span.text, at: Point(x: x, y: rect.minY + row), style: style(span.role), clip: rect)
                }
            }
        case .refused(let type, let reason):
            let lines = TextWrap.lines("⚠ \(type.isEmpty ? "a node" : type) not shown: \(reason)", width: rect.width)
            for (row, line) in lines.prefix(rect.height).enumerated() {
                buffer.write(line, at: Point(x: rect.minX, y: rect.minY + row), style: theme[.error], clip: rect)
            }
        case .unknown:
            break
        }
    }

    private var selectionStyle: Style { theme[focused ? .selection : .selectionUnfocused] }

    private func style(_ role: String?) -> Style {
        theme[role.flatMap(ThemeRole.init(rawValue:)) ?? .text]
    }

    private func rowRect(_ rect: Rect, _ y: Int) -> Rect { Rect(x: rect.minX, y: y, width: rect.width, height: 1) }

    private func drawTable(columns: [ViewNode.Column], rows: [[String]], selected: Int?, in rect: Rect, into buffer: inout Buffer) {
        let widths = Self.columnWidths(columns, rows: rows, width: rect.width)
        func drawRow(_ cells: [String], y: Int, style: Style) {
            var x = rect.minX
            for (index, width) in widths.enumerated() where width > 0 {
                let text = index < cells.count ? cells[index] : ""
                let cell = Rect(x: x, y: y, width: width, height: 1).intersection(rect)
                let pad = columns[index].alignRight ? max(0, width - DisplayWidth.of(text)) : 0
                buffer.write(text, at: Point(x: x + pad, y: y), style: style, clip: cell)
                x += width + 1
            }
        }
        drawRow(columns.map(\.title), y: rect.minY, style: theme[.heading])
        let body = Rect(x: rect.minX, y: rect.minY + 1, width: rect.width, height: rect.height - 1)
        guard !body.isEmpty else { return }
        let first = Self.firstVisible(selected: selected, count: rows.count, height: body.height)
        for (row, cells) in rows.dropFirst(first).prefix(body.height).enumerated() {
            let y = body.minY + row
            let isSelected = first + row == selected
            if isSelected { buffer.fill(rowRect(rect, y), with: Cell(" ", style: selectionStyle)) }
            drawRow(cells, y: y, style: isSelected ? selectionStyle : theme[.text])
        }
    }

    private func drawGauge(label: String, value: Double, text: String?, role: String?, in rect: Rect, into buffer: inout Buffer) {
        let y = rect.minY
        let suffix = text.map { " " + $0 } ?? ""
        let suffixWidth = DisplayWidth.of(suffix)
        var x = rect.minX
        if !label.isEmpty {
            // The label gives way to the bar on narrow panes, down to a third of the width.
            let labelRoom = min(DisplayWidth.of(label) + 1, max(0, rect.width - suffixWidth - max(4, rect.width / 3)))
            buffer.write(label, at: Point(x: x, y: y), style: theme[.text], clip: Rect(x: x, y: y, width: max(0, labelRoom - 1), height: 1))
            x += labelRoom
        }
        let barWidth = max(0, rect.maxX - x - suffixWidth)
        let filled = Self.cells(value, of: barWidth)
        buffer.write(String(repeating: "█", count: filled), at: Point(x: x, y: y), style: style(role ?? "accent"), clip: rect)
        buffer.write(String(repeating: "░", count: barWidth - filled), at: Point(x: x + filled, y: y), style: theme[.muted], clip: rect)
        buffer.write(suffix, at: Point(x: x + barWidth, y: y), style: theme[.text], clip: rect)
    }

    // MARK: Pure helpers

    /// The first row to show so that `selected` is in view.
    static func firstVisible(selected: Int?, count: Int, height: Int) -> Int {
        guard let selected, height > 0, selected >= height else { return 0 }
        return min(selected - height + 1, max(0, count - height))
    }

    /// Fixed sizes first (cut to what fits), then what is left in proportion to `grow`, each share
    /// rounded down and the rest to the last growing child.
    static func share(_ length: Int, among children: [ViewNode.StackChild]) -> [Int] {
        var left = length
        var sizes = children.map { child -> Int in
            guard let size = child.size else { return 0 }
            let taken = min(size, left)
            left -= taken
            return taken
        }
        let growing = children.indices.filter { children[$0].size == nil && children[$0].grow > 0 }
        let weights = growing.map { children[$0].grow }.reduce(0, +)
        guard weights > 0 else { return sizes }
        var given = 0
        for (order, index) in growing.enumerated() {
            let share = order == growing.count - 1 ? left - given : left * children[index].grow / weights
            sizes[index] = share
            given += share
        }
        return sizes
    }

    /// Fixed widths first; the rest shared by the other columns, each at least as wide as its
    /// title where there is room; one space between columns.
    static func columnWidths(_ columns: [ViewNode.Column], rows: [[String]], width: Int) -> [Int] {
        guard !columns.isEmpty else { return [] }
        let gaps = columns.count - 1
        var widths = columns.map { $0.width ?? 0 }
        let flexible = columns.indices.filter { columns[$0].width == nil }
        let left = max(0, width - gaps - widths.reduce(0, +))
        guard !flexible.isEmpty else { return widths }
        // Natural widths, capped by an equal share plus what narrower columns leave.
        let natural = flexible.map { index in
            max(DisplayWidth.of(columns[index].title), rows.prefix(200).map { index < $0.count ? DisplayWidth.of($0[index]) : 0 }.max() ?? 0)
        }
        var remaining = left
        var pending = Array(zip(flexible, natural)).sorted { $0.1 < $1.1 }
        while !pending.isEmpty {
            let share = remaining / pending.count
            let (index, want) = pending.removeFirst()
            let given = pending.isEmpty ? remaining : min(want, share)
            widths[index] = given
            remaining -= given
        }
        return widths
    }

    /// ▁▂▃▄▅▆▇█ for `values`, scaled from `low` to `high` (default: their own range).
    static func sparkline(_ values: some Collection<Double>, low: Double?, high: Double?) -> String {
        guard let least = values.min(), let most = values.max() else { return "" }
        let bottom = low ?? least
        let span = (high ?? most) - bottom
        return String(values.map { value in
            span > 0 ? sparkBlocks[cells((value - bottom) / span, of: sparkBlocks.count - 1)] : sparkBlocks[0]
        })
    }

    /// How many of `count` cells a fraction fills, rounded: 0…`count` whatever the fraction
    /// (beyond 0…1, infinite or not a number, as a zero or negative span gives).
    static func cells(_ fraction: Double, of count: Int) -> Int {
        guard fraction.isFinite, count > 0 else { return 0 }
        return Int((min(1, max(0, fraction)) * Double(count)).rounded())
    }
}
