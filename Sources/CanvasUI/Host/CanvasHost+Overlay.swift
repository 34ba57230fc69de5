import CanvasCore

extension CanvasHost {
    /// One line of an overlay and its role.
    struct OverlayLine {
        let text: String
        let role: ThemeRole
    }

    func drawOverlay(into buffer: inout Buffer) {
        switch mode {
        case .normal, .arrange:
            return
        case .help:
            var lines: [OverlayLine] = []
            let keyWidth = KeyMap.help.flatMap(\.keys).map { DisplayWidth.of($0.keys) }.max() ?? 0
            for (index, section) in KeyMap.help.enumerated() {
                if index > 0 { lines.append(OverlayLine(text: "", role: .overlay)) }
                lines.append(OverlayLine(text: section.heading, role: .heading))
                for hint in section.keys {
                    let pad = String(repeating: " ", count: keyWidth - DisplayWidth.of(hint.keys))
                    lines.append(OverlayLine(text: "  \(hint.keys)\(pad)  \(hint.action)", role: .overlay))
                }
            }
            lines.append(OverlayLine(text: "", role: .overlay))
            lines.append(OverlayLine(text: "Any key closes this help.", role: .muted))
            drawBox(title: "Help", lines: lines, into: &buffer)
        case .catalog(let selected):
            let lines = catalog.descriptors.enumerated().map { index, entry in
                OverlayLine(text: "\(index + 1) \(entry.name) \(entry.version) — \(entry.summary)",
                            role: index == selected ? .selection : .overlay)
            }
            drawBox(title: "Add a widget", lines: lines, into: &buffer)
        case .confirmRemove(let id):
            let name = manager.pane(id).map(title(of:)) ?? "\(id)"
            drawBox(title: "Remove pane", lines: [
                OverlayLine(text: "Remove pane \(name)?", role: .overlay),
                OverlayLine(text: "y removes it (u undoes), any other key keeps it.", role: .muted),
            ], into: &buffer)
        case .settings(let selected):
            let settings = manager.focusedPaneID.flatMap { mounted[$0]?.widget?.settings } ?? []
            let lines = settings.isEmpty
                ? [OverlayLine(text: "This widget has no settings.", role: .muted)]
                : settings.enumerated().map { index, setting in
                    OverlayLine(text: "\(setting.label): \(setting.value)", role: index == selected ? .selection : .overlay)
                }
            drawBox(title: "Settings", lines: lines + [OverlayLine(text: "Enter changes the highlighted setting.", role: .muted)],
                    into: &buffer)
        }
    }

    /// A centred box sized to its lines, clipped to the canvas.
    private func drawBox(title: String, lines: [OverlayLine], into buffer: inout Buffer) {
        let area = canvasArea
        let contentWidth = max(DisplayWidth.of(title) + 4, lines.map { DisplayWidth.of($0.text) }.max() ?? 0)
        let width = min(area.width, contentWidth + 4)
        let height = min(area.height, lines.count + 2)
        let box = Rect(x: (area.width - width) / 2, y: (area.height - height) / 2, width: width, height: height)
        buffer.fill(box, with: Cell(" ", style: theme[.overlay]))
        buffer.drawBox(box, lines: .heavy, style: theme[.overlayBorder])
        buffer.write(" \(title) ", at: Point(x: box.minX + 2, y: box.minY), style: theme[.overlayBorder],
                     clip: Rect(x: box.minX + 1, y: box.minY, width: max(0, box.width - 2), height: 1))
        let inside = box.inset(by: 1)
        for (row, line) in lines.prefix(inside.height).enumerated() {
            let y = inside.minY + row
            let rowRect = Rect(x: inside.minX, y: y, width: inside.width, height: 1)
            if line.role == .selection { buffer.fill(rowRect, with: Cell(" ", style: theme[.selection])) }
            buffer.write(" \(line.text)", at: Point(x: inside.minX, y: y), style: theme[line.role], clip: rowRect)
        }
    }
}
