import CanvasCore

/// Applying what overlays ask for.
extension CanvasHost {
    /// What an overlay may read of the host now.
    public var overlayContext: OverlayContext {
        let focused = manager.focusedPane.map { pane in
            (id: pane.id, title: title(of: pane), settings: mounted[pane.id]?.widget?.settings ?? [])
        }
        let typing = isTyping
        let contexts = commandContexts.filter { context in
            if case .widget = context { return !typing }
            return true
        }
        return OverlayContext(area: canvasArea, theme: theme, commands: commands, contexts: contexts, idle: idleCommands,
                              layoutName: manager.layout.name, catalog: catalog, focused: focused, recentCommands: recentCommands)
    }

    /// Commands that would do nothing now.
    private var idleCommands: Set<CommandID> {
        var idle = Set((1...9).filter { $0 > manager.panes.count }.map { CommandID.focus(pane: $0) })
        if manager.focusedPaneID == nil { idle.formUnion([.removePane, .paneSettings]) }
        if appGenerator == nil {
            idle.insert(.newApp)
            if catalog.descriptors.isEmpty { idle.insert(.addPane) }
        }
        return idle
    }

    func apply(_ actions: [HostAction]) {
        for action in actions { apply(action) }
    }

    private func apply(_ action: HostAction) {
        switch action {
        case .close: overlay = nil
        case .run(let id):
            recentCommands.removeAll { $0 == id }
            recentCommands.insert(id, at: 0)
            recentCommands = Array(recentCommands.prefix(Self.recentCommandLimit))
            run(id)
        case .notice(let message): notice = message
        case .addPane(let kind, let name):
            arrange("add \(name)") { m throws(CanvasError) in try m.addWidget(NewPane(app: kind)) }
        case .removePane(let id):
            arrange("remove") { m throws(CanvasError) in try m.removeWidget(id) }
        case .cycleSetting(let id, let key):
            let subscriptions = mounted[id]?.widget?.subscriptions
            _ = withWidget(id, doing: "changing a setting") { try $0.cycleSetting(key) }
            if mounted[id]?.widget?.subscriptions != subscriptions { resubscribe(id) }
        case .saveLayout(let name): save(as: name)
        case .loadLayout(let name): load(name)
        case .deleteLayout(let name): persist("delete \(name)") { try await $0.delete(name) }
        case .renameLayout(let name, let newName):
            if name == manager.layout.name { manager.rename(to: newName) }
            persist("rename \(name)") { try await $0.rename(name, to: newName) }
        case .listLayouts: listLayouts()
        case .loadTheme(let name, let keep): loadTheme(name, keep: keep)
        case .showTheme(let shown): theme = shown
        case .keepTheme:
            let name = theme.name
            persist("remember the theme") { try await $0.remember(theme: name) }
        case .quitWithoutSaving: requestQuit()
        case .stay:
            quitSave = .notTried
            overlay = nil
        case .generateApp(let description): generateApp(description)
        case .installGeneratedApp: installGeneratedApp()
        case .discardGeneratedApp: discardGeneratedApp()
        }
    }

    /// How many commands the palette remembers as recent.
    static let recentCommandLimit = 8
}
