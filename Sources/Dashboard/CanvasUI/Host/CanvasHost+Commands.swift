import CanvasCore

/// What each command does, whether its key was pressed or the palette ran it.
extension HostState {
    mutating func run(_ id: CommandID) {
        logger.debug("command", metadata: ["command": "\(id)"])
        guard let kind = CanvasCommandKind.byCommand[id] else { return runWidgetCommand(id) }
        // Only the palette reaches an arrange-mode command from normal mode: it enters arrange
        // mode first, so the user sees where they are and can go on with the keys.
        if mode == .normal, commands.command(id)?.context == .arrange {
            guard mayArrange() else { return }
            mode = .arrange
        }
        let focused = manager.focusedPaneID
        switch kind {
        case .focusNext: changeFocus { $0.focusNext() }
        case .focusPrevious: changeFocus { $0.focusPrevious() }
        case .focus(let direction): changeFocus { _ = $0.focus(direction) }
        case .focusPane(let number): changeFocus { _ = $0.focus(number: number) }
        case .help: overlays.append(HelpOverlay())
        case .palette: openPalette()
        case .quit: requestQuit()
        case .arrange:
            guard mayArrange() else { return }
            zoomed = nil
            mode = .arrange
        case .zoomPane: zoomed = zoomedPane == nil ? focused : nil
        case .arrangeDone: mode = .normal
        case .saveLayout: openSavePrompt()
        case .openLayout: openLayoutPicker()
        case .restorePreset: restorePreset()
        case .pickTheme: openThemePicker()
        case .messages: overlays.append(MessagesOverlay(entries: noticeLog.entries))
        case .undo: undo()
        case .redo: redo()
        case .addPane:
            guard mayArrange(), !catalog.descriptors.isEmpty || !catalog.offers.isEmpty || ports.appGenerator != nil else { return }
            overlays.append(CatalogOverlay())
        case .newApp: openNewApp()
        case .removePane:
            guard mayArrange(), let focused, let pane = manager.pane(focused) else { return }
            overlays.append(ConfirmRemoveOverlay(pane: focused, title: title(of: pane)))
        case .paneSettings:
            guard focused != nil, mayArrange() else { return }
            overlays.append(SettingsOverlay())
        case .move(let direction):
            guard let focused else { return }
            arrange("move") { m throws(CanvasError) in try m.movePane(focused, direction) }
        case .resize(let direction):
            guard let focused else { return }
            arrange("resize") { m throws(CanvasError) in try m.resizePane(focused, direction) }
        }
    }

    /// A widget's own command, for the focused pane when its kind has it.
    private mutating func runWidgetCommand(_ id: CommandID) {
        guard let focused = manager.focusedPaneID, let pane = manager.pane(focused), let context = commands.command(id)?.context,
              context == .widget(pane.app) || (context == .microApp && isMicroApp(pane.app))
        else { return }
        withWidgetEffects(focused, doing: "running one of its commands") { try $0.perform(id) }
    }

    /// Opens the palette with the names last listed, and lists them again. (Not listed before
    /// the palette is first opened: listing them after the first frame raised a dashboard's
    /// peak memory by ~3 MB, measured, for a palette that may stay shut.)
    private mutating func openPalette() {
        overlays.append(PaletteOverlay(layouts: palette.layouts, themes: palette.themes))
        emit(.read(.names))
    }

    mutating func undo() {
        if shared != nil { return mayArrange() ? replayShared(undo: true) : () }
        syncWidgetValues()
        guard manager.undo() else { notice = .info("Nothing to undo"); return }
        reconcileWidgets()
        publish(LayoutChanged(step: "undo"))
        emit(.write(.undo(manager.saveLayout())))
    }

    mutating func redo() {
        if shared != nil { return mayArrange() ? replayShared(undo: false) : () }
        syncWidgetValues()
        guard manager.redo() else { notice = .info("Nothing to redo"); return }
        reconcileWidgets()
        publish(LayoutChanged(step: "redo"))
        emit(.write(.redo(manager.saveLayout())))
    }
}

/// What the host does for each of the canvas's own commands, found by its id in one table.
enum CanvasCommandKind: Equatable {
    case focusNext, focusPrevious, help, palette, quit, arrange, arrangeDone, saveLayout, openLayout, restorePreset, pickTheme, messages
    case undo, redo
    case addPane, newApp, removePane, paneSettings, zoomPane
    case focus(Direction)
    case focusPane(Int)
    case move(Direction)
    case resize(Direction)

    static let byCommand: [CommandID: CanvasCommandKind] = {
        var table: [CommandID: CanvasCommandKind] = [
            .focusNext: .focusNext, .focusPrevious: .focusPrevious, .help: .help, .palette: .palette, .quit: .quit,
            .arrange: .arrange, .arrangeDone: .arrangeDone, .saveLayout: .saveLayout, .openLayout: .openLayout, .restorePreset: .restorePreset,
            .pickTheme: .pickTheme, .messages: .messages, .undo: .undo, .redo: .redo, .addPane: .addPane, .newApp: .newApp,
            .removePane: .removePane, .paneSettings: .paneSettings, .zoomPane: .zoomPane,
        ]
        for direction in Direction.allCases {
            table[.focus(direction)] = .focus(direction)
            table[.move(direction)] = .move(direction)
            table[.resize(direction)] = .resize(direction)
        }
        for number in 1...9 { table[.focus(pane: number)] = .focusPane(number) }
        return table
    }()
}
