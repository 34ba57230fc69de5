import CanvasCore

/// What each command does, whether its key was pressed or the palette ran it.
extension CanvasHost {
    func run(_ id: CommandID) {
        logger.debug("command", metadata: ["command": "\(id)"])
        let focused = manager.focusedPaneID
        switch id {
        case .focusNext: changeFocus { $0.focusNext() }
        case .focusPrevious: changeFocus { $0.focusPrevious() }
        case .help: overlay = HelpOverlay()
        case .palette: openPalette()
        case .quit: requestQuit()
        case .arrange: mode = .arrange
        case .arrangeDone: mode = .normal
        case .saveLayout: openSavePrompt()
        case .openLayout: openLayoutPicker()
        case .pickTheme: openThemePicker()
        case .undo: undo()
        case .redo: redo()
        case .addPane: overlay = catalog.descriptors.isEmpty && appGenerator == nil ? nil : CatalogOverlay()
        case .newApp: openNewApp()
        case .removePane:
            guard let focused, let pane = manager.pane(focused) else { return }
            overlay = ConfirmRemoveOverlay(pane: focused, title: title(of: pane))
        case .paneSettings:
            guard focused != nil else { return }
            overlay = SettingsOverlay()
        default:
            runParameterised(id, focused: focused)
        }
    }

    /// Commands of a direction or a number, and the widgets' own.
    private func runParameterised(_ id: CommandID, focused: PaneID?) {
        for direction in Direction.allCases {
            if id == .focus(direction) {
                changeFocus { _ = $0.focus(direction) }
                return
            }
            guard let focused, id == .move(direction) || id == .resize(direction) else { continue }
            if id == .move(direction) {
                arrange("move") { m throws(CanvasError) in try m.movePane(focused, direction) }
            } else {
                arrange("resize") { m throws(CanvasError) in try m.resizePane(focused, direction) }
            }
            return
        }
        if let number = (1...9).first(where: { id == .focus(pane: $0) }) {
            changeFocus { _ = $0.focus(number: number) }
            return
        }
        guard let focused, let pane = manager.pane(focused), let context = commands.command(id)?.context,
              context == .widget(pane.app) || (context == .microApp && isMicroApp(pane.app))
        else { return }
        withWidgetEffects(focused, doing: "running one of its commands") { try $0.perform(id) }
    }

    /// Opens the palette with the names last listed, and lists them again. (Not listed before
    /// the palette is first opened: listing them after the first frame raised a dashboard's
    /// peak memory by ~3 MB, measured, for a palette that may stay shut.)
    private func openPalette() {
        overlay = PaletteOverlay(layouts: knownNames.layouts, themes: knownNames.themes)
        listNames()
    }

    /// Lists the layouts' and themes' names (`namesListed`) for the palette.
    private func listNames() {
        guard let library else { return }
        effects.perform {
            do {
                return .namesListed(layouts: try await library.layoutNames(), themes: await library.themeNames())
            } catch {
                return .notice(.error("Could not list layouts: \(error)"))
            }
        }
    }

    func undo() {
        syncWidgetValues()
        guard manager.undo() else { notice = .info("Nothing to undo"); return }
        reconcileWidgets()
        bus.publish(LayoutChanged(step: "undo"))
        let layout = manager.saveLayout()
        persist("record the undo") { try await $0.recordUndo(layout: layout) }
    }

    func redo() {
        syncWidgetValues()
        guard manager.redo() else { notice = .info("Nothing to redo"); return }
        reconcileWidgets()
        bus.publish(LayoutChanged(step: "redo"))
        let layout = manager.saveLayout()
        persist("record the redo") { try await $0.recordRedo(layout: layout) }
    }
}
