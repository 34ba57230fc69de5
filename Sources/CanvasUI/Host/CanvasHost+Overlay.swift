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
        case .savePrompt(let field):
            drawBox(title: "Save layout", lines: [
                OverlayLine(text: "Name: " + field.text + "▏", role: .overlay),
                OverlayLine(text: "Enter saves, Esc cancels.", role: .muted),
            ], into: &buffer)
        case .layoutPicker(let picker):
            drawBox(title: "Layouts", lines: layoutPickerLines(picker), into: &buffer)
        case .quitting(nil, _):
            return  // saving, which takes a moment: the status bar says so
        case .quitting(let failure?, _):
            // Wrapped to the canvas, so a long path is read whole.
            let width = max(20, canvasArea.width - 6)
            let lines = quitFailureLines(failure, width: width)
            drawBox(title: "Layout not saved", lines: lines.enumerated().map { index, text in
                OverlayLine(text: text, role: index == lines.count - 1 ? .muted : .error)
            }, into: &buffer)
        case .themePicker(let picker):
            let lines = (picker.names ?? []).enumerated().map { index, name in
                OverlayLine(text: name, role: index == picker.selected ? .selection : .overlay)
            }
            drawBox(title: "Theme", lines: (picker.names == nil ? [OverlayLine(text: "Loading…", role: .muted)] : lines)
                + [OverlayLine(text: "↑↓ preview, Enter keeps, Esc goes back.", role: .muted)], into: &buffer)
        }
    }

    private func layoutPickerLines(_ picker: LayoutPicker) -> [OverlayLine] {
        var lines = [OverlayLine(text: "Filter: " + picker.filter.text + (picker.action == .filtering ? "▏" : ""),
                                 role: picker.action == .filtering ? .accent : .muted)]
        guard picker.items != nil else { return lines + [OverlayLine(text: "Loading…", role: .muted)] }
        let visible = picker.visible
        if visible.isEmpty { lines.append(OverlayLine(text: "No layout matches.", role: .muted)) }
        for (index, item) in visible.enumerated() {
            let current = item.name == manager.layout.name ? " (current)" : ""
            let kind = item.isPreset ? "preset" : "\(item.paneCount) panes"
            lines.append(OverlayLine(text: "\(item.name)\(current) — \(kind)", role: index == picker.selected ? .selection : .overlay))
        }
        switch picker.action {
        case .confirmingDelete(let name):
            lines.append(OverlayLine(text: "Delete \(name)? y deletes, any other key keeps it.", role: .warning))
        case .renaming(let name, let field):
            lines.append(OverlayLine(text: "Rename \(name) to: \(field.text)▏", role: .accent))
        case .browsing, .filtering:
            lines.append(OverlayLine(text: "Enter load · d delete · r rename · / or type to filter · Esc close", role: .muted))
        }
        return lines
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
        var shown = Array(lines.prefix(inside.height))
        if lines.count > inside.height, !shown.isEmpty {
            shown[shown.count - 1] = OverlayLine(text: "… \(lines.count - shown.count + 1) more lines: enlarge the terminal",
                                                 role: .muted)
        }
        for (row, line) in shown.enumerated() {
            let y = inside.minY + row
            let rowRect = Rect(x: inside.minX, y: y, width: inside.width, height: 1)
            if line.role == .selection { buffer.fill(rowRect, with: Cell(" ", style: theme[.selection])) }
            buffer.write(" \(line.text)", at: Point(x: inside.minX, y: y), style: theme[line.role], clip: rowRect)
        }
    }
}
