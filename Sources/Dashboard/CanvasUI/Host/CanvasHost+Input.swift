import CanvasCore

extension HostState {
    /// Routes one input: a Ctrl key bound to quit quits from anywhere; else the overlay on top gets
    /// the key; else commands that act over a text field, then a focused text field, then the other
    /// commands, then the focused widget.
    mutating func handle(_ input: InputEvent) {
        logger.trace("input", metadata: ["event": "\(input.logged)"])
        switch input {
        case .resize(let newSize):
            size = newSize
        case .mouse(let mouse):
            guard !isTooSmall else { return }
            handleMouse(mouse)
        case .key(let key):
            notice = nil
            guard !isTooSmall else {
                // Nothing else is on screen to act on: only quitting makes sense, or answering the
                // box whose words the screen shows instead (the layout could not be saved).
                if quitsFromAnywhere(key) {
                    requestQuit()
                } else if overlay?.tooSmallLines != nil {
                    keyToOverlay(key)
                } else if commands.command(for: key, in: [.canvas])?.id == .quit {
                    requestQuit()
                }
                return
            }
            handleKey(key)
        case .paste(let text):
            notice = nil
            guard !isTooSmall else { return }
            paste(text)
        }
    }

    /// Types pasted text into the text field that has the keys, a line break as a space (every
    /// field is one line: a pasted line break must not submit it); with no field, says so
    /// rather than run its characters as commands.
    private mutating func paste(_ text: String) {
        guard overlay?.capturesText ?? isTyping else {
            notice = .info("Nothing to paste into: no text field has the focus")
            return
        }
        for character in text {
            handleKey(.char(character.isNewline || character == "\t" ? " " : character))
        }
    }

    private mutating func handleKey(_ key: Key) {
        endDrag()
        if quitsFromAnywhere(key) {
            requestQuit()
            return
        }
        if overlay != nil {
            keyToOverlay(key)
            return
        }
        let contexts = commandContexts
        if let command = commands.command(for: key, in: contexts, beforeTyping: true) {
            run(command.id)
            return
        }
        let focused = manager.focusedPaneID
        let capturesText = isTyping
        if capturesText, let focused, send(.key(key), to: focused) == .handled { return }
        if let command = commands.command(for: key, in: contexts) {
            run(command.id)
            return
        }
        guard mode == .normal, !capturesText, let focused else { return }
        _ = send(.key(key), to: focused)
    }

    /// Hands a key to the overlay on top and carries out what it asks.
    private mutating func keyToOverlay(_ key: Key) {
        guard !overlays.isEmpty else { return }
        let (top, context) = (overlays.count - 1, overlayContext(covered: false))
        let actions = overlays[top].handle(key, context)
        apply(actions, from: top)
    }

    /// A Ctrl key bound to quit (Ctrl-Q, Ctrl-C) quits from any overlay and text field, even
    /// glued to an Esc typed just before (read as Alt).
    private func quitsFromAnywhere(_ key: Key) -> Bool {
        guard key.modifiers.contains(.ctrl) else { return false }
        return commands.command(for: Key(key.code, key.modifiers.subtracting(.alt)), in: [.canvas])?.id == .quit
    }

    /// True while the focused widget's text field has the keys (normal mode only).
    var isTyping: Bool {
        mode == .normal && (manager.focusedPaneID.flatMap { mounted[$0]?.widget?.capturesText } ?? false)
    }

    /// Where commands apply now, most specific first: the focused widget's kind (normal mode),
    /// the mode, then the canvas.
    var commandContexts: [CommandContext] {
        switch mode {
        case .normal:
            (manager.focusedPane.map { pane in
                [CommandContext.widget(pane.app)] + (isMicroApp(pane.app) ? [.microApp] : [])
            } ?? []) + [.normal, .canvas]
        case .arrange: [.arrange, .canvas]
        }
    }

    /// A press focuses the pane under the pointer; in arrange mode it may start a drag; in normal
    /// mode the widget also gets the press or wheel, in its own coordinates.
    private mutating func handleMouse(_ mouse: MouseEvent) {
        guard overlays.isEmpty else { return }
        switch mouse.action {
        case .drag: return continueDrag(to: mouse.position)
        case .release: return endDrag()
        case .press, .wheelUp, .wheelDown: break
        }
        guard let pane = shownPanes.first(where: { cellRect(of: $0).contains(mouse.position) }) else { return }
        if mouse.action == .press {
            changeFocus { _ = $0.focus(pane.id) }
        }
        if beginDrag(mouse, on: pane) { return }
        let inside = cellRect(of: pane).inset(by: 1)
        guard mode == .normal, inside.contains(mouse.position) else { return }
        let local = Point(x: mouse.position.x - inside.minX, y: mouse.position.y - inside.minY)
        _ = send(.mouse(MouseEvent(mouse.action, at: local)), to: pane.id)
    }
}
