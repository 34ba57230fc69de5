import CanvasCore

extension CanvasHost {
    /// Routes one input: global keys first, then the current mode, then the focused widget.
    public func handle(_ input: InputEvent) {
        logger.trace("input", metadata: ["event": "\(input)"])
        switch input {
        case .resize(let newSize):
            size = newSize
        case .mouse(let mouse):
            guard !isTooSmall else { return }
            handleMouse(mouse)
        case .key(let key):
            notice = nil
            guard !isTooSmall else {
                // Nothing else is on screen to act on: only quitting makes sense (and staying, when
                // the screen says the layout could not be saved).
                if case .quitting(let failure?, let over) = mode, key == .escape {
                    handleQuitting(key, failure: failure, over: over)
                } else if key == .char("q") || key.modifiers.contains(.ctrl) && (key.code == .char("q") || key.code == .char("c")) {
                    requestQuit()
                }
                return
            }
            handleKey(key)
        }
        resizeWidgets()
    }

    private func handleKey(_ key: Key) {
        // Ctrl-Q and Ctrl-C always quit, even glued to an Esc typed just before (read as Alt).
        if key.modifiers.contains(.ctrl), key.code == .char("q") || key.code == .char("c") {
            requestQuit()
            return
        }
        switch mode {
        case .normal: handleNormal(key)
        case .arrange: handleArrange(key)
        case .help(let over): mode = over == .normal ? .normal : .arrange
        case .catalog(let selected): handleCatalog(key, selected: selected)
        case .confirmRemove(let id): handleConfirm(key, removing: id)
        case .settings(let selected): handleSettings(key, selected: selected)
        case .savePrompt(let field): handleSavePrompt(key, field: field)
        case .layoutPicker(let picker): handleLayoutPicker(key, picker: picker)
        case .themePicker(let picker): handleThemePicker(key, picker: picker)
        case .quitting(let failure, let over): handleQuitting(key, failure: failure, over: over)
        }
    }

    /// Keys every base mode shares: focus movement and help.
    private func handleNavigation(_ key: Key) -> Bool {
        switch (key.code, key.modifiers) {
        case (.tab, []): changeFocus { $0.focusNext() }
        case (.backTab, _), (.tab, .shift): changeFocus { $0.focusPrevious() }
        case (.function(1), []): mode = .help(over: mode.base)
        case (.char("s"), .ctrl): openSavePrompt()
        case (.char("o"), .ctrl): openLayoutPicker()
        case (.char("t"), .ctrl): openThemePicker()
        case (let code, .alt) where code.direction != nil:
            changeFocus { _ = $0.focus(code.direction!) }
        case (.char(let c), .alt) where c.wholeNumberValue.map({ (1...9).contains($0) }) == true:
            changeFocus { _ = $0.focus(number: c.wholeNumberValue!) }
        default: return false
        }
        return true
    }

    /// A widget whose text field has focus gets keys first, so `q`, `?` and the line-editing
    /// Ctrl-E reach the field; what it ignores (Ctrl-E on an empty line, say) falls to the canvas.
    private func handleNormal(_ key: Key) {
        if handleNavigation(key) { return }
        let focused = manager.focusedPaneID
        let capturesText = focused.flatMap { mounted[$0]?.widget?.capturesText } ?? false
        if capturesText, let focused, withWidget(focused, { try $0.handle(.key(key)) }) == .handled { return }
        switch key {
        case .ctrl("e"): mode = .arrange
        case .char("q"): requestQuit()
        case .char("?"): mode = .help(over: .normal)
        default:
            guard !capturesText, let focused else { return }
            _ = withWidget(focused) { try $0.handle(.key(key)) }
        }
    }

    private func handleArrange(_ key: Key) {
        if handleNavigation(key) { return }
        guard let id = manager.focusedPaneID else {
            switch key {
            case .char("a"): mode = .catalog(selected: 0)
            case .enter, .escape: mode = .normal
            case .char("q"): requestQuit()
            case .char("?"): mode = .help(over: .arrange)
            case .char("u"): undo()
            case .ctrl("r"): redo()
            default: break
            }
            return
        }
        switch (key.code, key.modifiers) {
        case (let code, []) where code.direction != nil:
            arrange("move") { m throws(CanvasError) in try m.movePane(id, code.direction!) }
        case (let code, .shift) where code.direction != nil:
            arrange("resize") { m throws(CanvasError) in try m.resizePane(id, code.direction!) }
        case (.char("a"), []): mode = .catalog(selected: 0)
        case (.char("x"), []): mode = .confirmRemove(id)
        case (.char("s"), []): mode = .settings(selected: 0)
        case (.char("u"), []): undo()
        case (.char("r"), .ctrl): redo()
        case (.enter, []), (.escape, []): mode = .normal
        case (.char("q"), []): requestQuit()
        case (.char("?"), []): mode = .help(over: .arrange)
        default: break
        }
    }

    private func undo() {
        syncWidgetValues()
        guard manager.undo() else { notice = .info("Nothing to undo"); return }
        reconcileWidgets()
        bus.publish(LayoutChanged(step: "undo"))
        let layout = manager.saveLayout()
        persist("record the undo") { try await $0.recordUndo(layout: layout) }
    }

    private func redo() {
        syncWidgetValues()
        guard manager.redo() else { notice = .info("Nothing to redo"); return }
        reconcileWidgets()
        bus.publish(LayoutChanged(step: "redo"))
        let layout = manager.saveLayout()
        persist("record the redo") { try await $0.recordRedo(layout: layout) }
    }

    private func handleCatalog(_ key: Key, selected: Int) {
        let count = catalog.descriptors.count
        guard count > 0 else { mode = .arrange; return }
        switch key.code {
        case .up: mode = .catalog(selected: max(0, selected - 1))
        case .down: mode = .catalog(selected: min(count - 1, selected + 1))
        case .enter where count > 0:
            mode = .arrange
            let descriptor = catalog.descriptors[selected]
            arrange("add \(descriptor.name)") { m throws(CanvasError) in
                try m.addWidget(NewPane(app: descriptor.kind))
            }
        case .char(let c) where c.wholeNumberValue.map({ $0 >= 1 && $0 <= count }) == true:
            mode = .catalog(selected: c.wholeNumberValue! - 1)
        case .escape, .char("q"): mode = .arrange
        default: break
        }
    }

    private func handleConfirm(_ key: Key, removing id: PaneID) {
        mode = .arrange
        guard key == .char("y") || key == .char("Y") else {
            notice = .info("Kept the pane")
            return
        }
        arrange("remove") { m throws(CanvasError) in try m.removeWidget(id) }
    }

    private func handleSettings(_ key: Key, selected: Int) {
        guard let id = manager.focusedPaneID else { mode = .arrange; return }
        let settings = mounted[id]?.widget?.settings ?? []
        switch key.code {
        case .up: mode = .settings(selected: max(0, selected - 1))
        case .down: mode = .settings(selected: min(max(0, settings.count - 1), selected + 1))
        case .enter, .char(" "), .right:
            guard settings.indices.contains(selected) else { return }
            let subscriptions = mounted[id]?.widget?.subscriptions
            _ = withWidget(id) { try $0.cycleSetting(settings[selected].key) }
            if mounted[id]?.widget?.subscriptions != subscriptions { resubscribe(id) }
        case .escape, .char("q"), .char("s"): mode = .arrange
        default: break
        }
    }

    /// A press focuses the pane under the pointer; in normal mode the widget also gets the
    /// press or wheel, in its own coordinates.
    private func handleMouse(_ mouse: MouseEvent) {
        guard !isOverlayOpen,
              let pane = manager.panes.first(where: { cellRect(of: $0).contains(mouse.position) })
        else { return }
        if mouse.action == .press {
            changeFocus { _ = $0.focus(pane.id) }
        }
        let inside = cellRect(of: pane).inset(by: 1)
        guard mode == .normal, inside.contains(mouse.position) else { return }
        let local = Point(x: mouse.position.x - inside.minX, y: mouse.position.y - inside.minY)
        _ = withWidget(pane.id) { try $0.handle(.mouse(MouseEvent(mouse.action, at: local))) }
    }

    var isOverlayOpen: Bool {
        switch mode {
        case .normal, .arrange: false
        default: true
        }
    }
}
