import CanvasCore
import CanvasStyle

extension HostState {
    /// Composes the frame in `composed.buffer`, drawing again only what changed since the last
    /// one (see `ComposedFrame`), and returns the rows that may differ from it.
    mutating func composeFrame() -> DamagedRows {
        forgetDrawnPanesOnANewDay()
        var buffer = Buffer(size: .zero)
        swap(&buffer, &composed.buffer)  // drawn in place, not copied
        defer { swap(&buffer, &composed.buffer) }
        if let needed = minimumSize(), !size.contains(needed) {
            buffer.reset(to: size, filling: background)
            drawTooSmall(into: &buffer, needed: needed)
            composed.panes = [:]
            composed.covered = true
            return .all(size.height)
        }
        let drawings = shownPanes.map { pane in (pane, drawing(of: pane)) }
        let whole = !composed.isCurrent || composed.covered || overlay != nil || buffer.size != size
            || composed.panes.count != drawings.count || drawings.contains { composed.panes[$0.0.id]?.rect != $0.1.rect }
        var damage = DamagedRows()
        if whole {
            buffer.reset(to: size, filling: background)
            damage = .all(size.height)
        }
        for (pane, drawing) in drawings where whole || composed.panes[pane.id] != drawing {
            let inside = mounted[pane.id]?.drawn
            if !whole, let inside, let before = composed.panes[pane.id], before.hasSameBox(as: drawing) {
                // Only the inside changed (a key in it): its box and title are on the frame
                // already, and so are the rows it kept from the drawing on the frame.
                let area = drawing.rect.inset(by: 1)
                let rows = inside.redrawn.flatMap { $0.overDrawingNumber == before.inside ? $0.rows : nil } ?? 0..<area.height
                buffer.draw(inside.buffer, at: area.origin, rows: rows)
                damage.insert((area.minY + rows.lowerBound)..<(area.minY + rows.upperBound))
            } else {
                drawPane(drawing, inside: inside?.buffer, into: &buffer)
                damage.insert(drawing.rect.minY..<drawing.rect.maxY)
            }
        }
        composed.panes = Dictionary(uniqueKeysWithValues: drawings.map { ($0.0.id, $0.1) })
        let bar = statusBar()
        if whole || composed.statusBar != bar {
            bar.draw(into: &buffer, theme: theme)
            damage.insert(size.height - 1..<size.height)
        }
        composed.statusBar = bar
        buffer.cursor = typingCursor(among: drawings)
        overlay?.render(into: &buffer, overlayContext)
        composed.covered = overlay != nil
        composed.isCurrent = true
        return damage
    }

    /// Where the terminal's cursor goes: in the focused pane's text field while keys type into
    /// it, nowhere while an overlay has the keys or panes are being arranged.
    private func typingCursor(among drawings: [(Pane, PaneDrawing)]) -> Point? {
        guard overlay == nil, isTyping, let focused = manager.focusedPaneID, let cursor = mounted[focused]?.drawn?.buffer.cursor,
              let inside = drawings.first(where: { $0.0.id == focused })?.1.rect.inset(by: 1) else { return nil }
        let point = Point(x: inside.minX + cursor.x, y: inside.minY + cursor.y)
        return inside.contains(point) ? point : nil
    }

    /// The hints of `mode`; while a text field has the keys, only keys that reach their command.
    mutating func hints(in mode: HostMode) -> [KeyHint] {
        let set = HintSet(mode: mode, typing: isTyping)
        if let known = modeHints[set] { return known }
        let hints = commands.hints(in: mode == .normal ? [.normal, .canvas] : [.arrange, .canvas], typing: set.typing)
        modeHints[set] = hints
        return hints
    }

    /// Widgets may mark today (the calendar does): a new day redraws every pane.
    private mutating func forgetDrawnPanesOnANewDay() {
        let today = clock.today
        guard today != drawnOn else { return }
        drawnOn = today
        forgetDrawnPanes()
    }

    /// Every pane's inside is drawn again, and the whole frame (the theme or the day changed).
    mutating func forgetDrawnPanes() {
        for id in mounted.keys { mounted[id]?.drawn = nil }
        composed.isCurrent = false
    }

    /// An empty cell: only the background shows on a space, so the text colour is left out and
    /// a dark theme's empty cell equals the terminal's own blank (and is never sent).
    var background: Cell {
        Cell(" ", style: Style(background: theme[.text].background))
    }

    /// The smallest terminal that gives every pane its minimum cells, or nil without panes.
    func minimumSize() -> Size? {
        let minimumTerminal = Size(width: 20, height: 5)
        guard !manager.panes.isEmpty else { return minimumTerminal }
        // The status bar takes the terminal's last row, under the canvas.
        let canvas = manager.grid.smallestArea(giving: manager.panes.map(\.frame), cells: Self.minimumPaneCells,
                                               from: Size(width: minimumTerminal.width, height: minimumTerminal.height - 1),
                                               upTo: Size(width: 2_000, height: 1_999))
        return Size(width: canvas.width, height: canvas.height + 1)
    }

    private func drawTooSmall(into buffer: inout Buffer, needed: Size) {
        var messages = ["Terminal too small", "\(size.width)×\(size.height), needs \(needed.width)×\(needed.height)",
                        "Enlarge it" + (commands.label(for: .quit).map { " or press \($0)" } ?? "")]
        if let lines = overlay?.tooSmallLines { messages = lines }
        // Wrapped, so that even a very narrow terminal shows the size it needs.
        let lines = messages.enumerated().flatMap { index, text in TextWrap.lines(text, width: size.width).map { (index, $0) } }
        let top = max(0, (size.height - lines.count) / 2)
        for (offset, (index, line)) in lines.enumerated() {
            buffer.writeCentered(line, row: top + offset, in: buffer.bounds, style: index == 0 ? theme[.error] : theme[.text])
        }
    }

    /// What `pane` is drawn as, its inside drawn again first when what it was drawn for changed.
    private mutating func drawing(of pane: Pane) -> PaneDrawing {
        let rect = cellRect(of: pane)
        let focused = pane.id == manager.focusedPaneID
        let arranging = focused && mode == .arrange
        let zoom = pane.id == zoomedPane?.id ? " · zoomed" + (commands.label(for: .zoomPane).map { ", \($0) back" } ?? "") : ""
        return PaneDrawing(rect: rect, focused: focused, arranging: arranging, title: title(of: pane) + zoom,
                           label: arranging ? " \(pane.frame.minX),\(pane.frame.minY) \(pane.frame.width)×\(pane.frame.height) " : nil,
                           inside: drawnInside(of: pane, in: rect.inset(by: 1), focused: focused)?.number)
    }

    private func drawPane(_ drawing: PaneDrawing, inside: Buffer?, into buffer: inout Buffer) {
        let rect = drawing.rect
        let borderStyle = theme[drawing.arranging ? .borderArranging : drawing.focused ? .borderFocused : .border]
        buffer.drawBox(rect, lines: drawing.focused ? .heavy : .light, style: borderStyle)
        let titleClip = Rect(x: rect.minX + 1, y: rect.minY, width: max(0, rect.width - 2), height: 1)
        // Cut with a mark where the pane is too narrow for it.
        buffer.write(DisplayWidth.clipped(" \(drawing.title) ", to: max(0, rect.width - 3)), at: Point(x: rect.minX + 2, y: rect.minY),
                     style: theme[drawing.focused ? .titleFocused : .title], clip: titleClip)
        if let label = drawing.label {
            let bottom = Rect(x: rect.minX + 1, y: rect.maxY - 1, width: max(0, rect.width - 2), height: 1)
            buffer.write(label, at: Point(x: rect.maxX - 2 - DisplayWidth.of(label), y: rect.maxY - 1), style: borderStyle, clip: bottom)
        }
        if let inside { buffer.draw(inside, at: rect.inset(by: 1).origin) }
    }

    /// The pane's inside: as drawn before while nothing it depends on changed; else drawn again,
    /// over its last drawing by a widget that can, where only part of it changed; whole otherwise.
    private mutating func drawnInside(of pane: Pane, in inside: Rect, focused: Bool) -> DrawnContent? {
        guard !inside.isEmpty else { return nil }
        // Compared here and let go: a drawing held across the call would make it copy the cells.
        switch mounted[pane.id]?.drawn.map({ ($0.focused == focused && $0.buffer.size == inside.size, $0.isCurrent) }) {
        case (true, true)?: return mounted[pane.id]?.drawn
        case (true, false)?: if let redrawn = redrawnInside(of: pane.id) { return redrawn }
        default: break
        }
        guard let entry = mounted[pane.id] else { return nil }
        var content = Buffer(size: inside.size, filling: background)
        if let failure = entry.failure {
            content.write("This widget failed:", at: .zero, style: theme[.error])
            TextWrap.lines(failure, width: inside.width).prefix(max(0, inside.height - 1)).enumerated().forEach { row, line in
                content.write(line, at: Point(x: 0, y: row + 1), style: theme[.text])
            }
        } else if let widget = entry.widget {
            ports.willCallWidget?(entry.kind, "drawing its pane")
            widget.render(into: &content, theme: theme, focused: focused)
        } else {
            // Wrapped, never cut: the command to type is the point of it.
            let offered = catalog.offers.contains { $0.kind == pane.app }
            let lines = ["Unavailable micro-app '\(pane.app.rawValue)'", "Not installed on this machine:",
                         offered ? "termcanvas apps install \(pane.app.rawValue) installs it from the registry."
                                 : "termcanvas apps add FOLDER installs it.",
                         "Until then the pane is kept, and saved, as it is."]
            let wrapped = lines.enumerated().flatMap { index, line in TextWrap.lines(line, width: inside.width).map { (index, $0) } }
            for (row, (index, line)) in wrapped.enumerated() {
                content.write(line, at: Point(x: 0, y: row), style: theme[index == 0 ? .warning : .muted])
            }
        }
        composed.insidesDrawn += 1
        let drawn = DrawnContent(buffer: content, focused: focused, number: composed.insidesDrawn,
                                 widget: entry.widget?.drawsOverItsLastDrawing == true ? entry.widget : nil, redrawn: nil)
        mounted[pane.id]?.drawn = drawn
        return drawn
    }

    /// The inside drawn again over its last drawing by the widget, only where it changed; nil
    /// when the widget draws it whole.
    private mutating func redrawnInside(of id: PaneID) -> DrawnContent? {
        // Read field by field and the last drawing taken out, so its cells are drawn over in
        // place: a copy of the entry held here would make them copied.
        guard mounted[id]?.failure == nil, let kind = mounted[id]?.kind, let widget = mounted[id]?.widget,
              var previous = mounted[id]?.drawn, let drawnWidget = previous.widget else { return nil }
        mounted[id]?.drawn = nil
        var content = Buffer(size: .zero)
        swap(&content, &previous.buffer)
        content.cursor = nil
        ports.willCallWidget?(kind, "drawing its pane")
        guard let rows = widget.render(into: &content, over: drawnWidget, theme: theme, focused: previous.focused) else { return nil }
        composed.insidesDrawn += 1
        let drawn = DrawnContent(buffer: content, focused: previous.focused, number: composed.insidesDrawn, widget: widget,
                                 redrawn: Redrawn(rows: rows.clamped(to: 0..<content.size.height), overDrawingNumber: previous.number))
        mounted[id]?.drawn = drawn
        return drawn
    }
}
