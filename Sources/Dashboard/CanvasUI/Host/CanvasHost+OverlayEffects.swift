import CanvasCore

/// Applying what overlays ask for.
extension HostState {
    /// What the overlay on top may read of the host now.
    public var overlayContext: OverlayContext { overlayContext(covered: false) }

    /// What an overlay may read of the host now; `covered` when another box is over it.
    func overlayContext(covered: Bool) -> OverlayContext {
        let focused = manager.focusedPane.map { pane in
            (id: pane.id, title: title(of: pane), settings: mounted[pane.id]?.widget?.settings ?? [])
        }
        let typing = isTyping
        let contexts = commandContexts.filter { context in
            switch context {
            case .widget, .microApp: !typing
            case .canvas, .normal, .arrange: true
            }
        }
        return OverlayContext(area: canvasArea, theme: theme, commands: commands, contexts: contexts, idle: idleCommands,
                              layoutName: manager.layout.name, catalog: catalog, focused: focused, recentCommands: recentCommands,
                              covered: covered, presence: canvasPresence)
    }

    /// Commands that would do nothing now.
    private var idleCommands: Set<CommandID> {
        var idle = Set((1...9).filter { $0 > manager.panes.count }.map { CommandID.focus(pane: $0) })
        idle.insert(mode == .arrange ? .arrange : .arrangeDone)
        if manager.focusedPaneID == nil { idle.formUnion([.removePane, .paneSettings]) }
        if ports.appGenerator == nil {
            idle.insert(.newApp)
            if catalog.descriptors.isEmpty, catalog.offers.isEmpty { idle.insert(.addPane) }
        }
        return idle
    }

    /// Carries out what the overlay at `index` of the stack asked for.
    mutating func apply(_ effects: [OverlayEffect], from index: Int) {
        for effect in effects { apply(effect, from: index) }
    }

    private mutating func apply(_ effect: OverlayEffect, from index: Int) {
        switch effect {
        case .close:
            if overlays.indices.contains(index) { overlays.remove(at: index) }
        case .run(let id):
            palette.ran(id)
            run(id)
        case .notice(let message): notice = message
        case .addPane(let kind, let name):
            addPane(kind, name: name)
        case .installApp(let offer):
            guard mayArrange(), ports.installApp != nil else { return }
            notice = .info("Installing \(offer.name)…")
            emit(.install(offer))
        case .removePane(let id):
            arrange("remove") { m throws(CanvasError) in try m.removeWidget(id) }
        case .cycleSetting(let id, let key):
            guard mayArrange() else { return }
            syncWidgetValues()
            let before = manager.saveLayout()
            let subscriptions = mounted[id]?.widget?.subscriptions
            _ = withWidget(id, doing: "changing a setting") { try $0.cycleSetting(key) }
            if mounted[id]?.widget?.subscriptions != subscriptions { resubscribe(id) }
            if shared != nil {
                syncWidgetValues()
                shareStep("change a setting", before: before)
            }
        case .saveLayout(let name): save(as: name)
        case .loadLayout(let name): load(name)
        case .restorePreset(let name): restorePreset(name)
        case .deleteLayout(let name): emit(.write(.delete(name)))
        case .renameLayout(let name, let newName):
            if name == manager.layout.name {
                manager.rename(to: newName)
                preset = nil
            }
            emit(.write(.rename(name, to: newName)))
        case .listLayouts: emit(.read(.summaries))
        case .loadTheme(let name, let keep): emit(.read(.theme(name, keep: keep)))
        case .showTheme(let shown): theme = shown
        case .keepTheme: emit(.write(.rememberTheme(theme.name)))
        case .quitWithoutSaving: requestQuit()
        case .stay: quitting.stay()
        case .generateApp(let description, let run):
            logger.info("writing a micro-app")
            emit(.generator(.write(description, run: run)))
        case .installGeneratedApp(let review, let run): emit(.generator(.install(review, run: run)))
        case .discardGeneratedApp: emit(.generator(.stop))
        case .addInstalledApp(let descriptor): addInstalledApp(descriptor)
        }
    }
}

extension HostState {
    /// Adds a pane from the catalog, at least as large as its widget's minimum, or says why not.
    mutating func addPane(_ kind: AppKind, name: String) {
        // Without free room a pane is split: on a shared canvas the focused one only, never one
        // another member may be using.
        let onShared = shared != nil
        guard let inside = catalog.descriptor(for: kind)?.minimumSize else {
            arrange("add \(name)") { m throws(CanvasError) in try m.addWidget(NewPane(app: kind), onlySplittingTheFocused: onShared) }
            return
        }
        guard let units = gridUnits(holding: inside) else {
            notice = .error("Can't add \(name): it needs at least \(inside.width)×\(inside.height) cells inside its pane, "
                            + "more than the terminal has; enlarge it")
            return
        }
        arrange("add \(name)", explaining: { error in
            guard case .noRoomFor = error else { return nil }
            return "Can't add \(name): no room for its minimum of \(inside.width)×\(inside.height) cells; "
                + (onShared ? "on a shared canvas only the focused pane is split: focus a larger one, " : "")
                + "shrink or remove a pane, or enlarge the terminal"
        }) { m throws(CanvasError) in try m.addWidget(NewPane(app: kind, minimumSize: units), onlySplittingTheFocused: onShared) }
    }

    /// The fewest grid units whose pane has an inside of at least `inside` cells wherever it is
    /// put on this terminal, nil when the whole canvas is too small. `w` units anywhere span at
    /// least ⌊w·cells/units⌋ cells (`GridSpec.cellRect` rounds both edges down), and the border
    /// takes two.
    func gridUnits(holding inside: Size) -> Size? {
        let grid = manager.grid, area = canvasArea
        // Checked first, so the products below stay small whatever the minimum came from.
        guard inside.width >= 0, inside.height >= 0, inside.width < area.width, inside.height < area.height else { return nil }
        func units(_ cells: Int, of length: Int, in count: Int) -> Int? {
            let wanted = (cells + 2) * count
            let needed = wanted / length + (wanted % length == 0 ? 0 : 1)
            return needed <= count ? needed : nil
        }
        guard let width = units(inside.width, of: area.width, in: grid.columns),
              let height = units(inside.height, of: area.height, in: grid.rows) else { return nil }
        return Size(width: max(width, grid.minimumPaneSize.width), height: max(height, grid.minimumPaneSize.height))
    }
}
