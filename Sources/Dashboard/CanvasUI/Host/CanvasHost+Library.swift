import CanvasCore
import FoundationEssentials

/// Saving, loading and theming: Ctrl-S, Ctrl-O and Ctrl-T, and the messages their IO sends back.
extension HostState {
    mutating func openSavePrompt() {
        guard keepsLayouts else { notice = .error("Layouts cannot be saved: no layout database"); return }
        overlays.append(SavePromptOverlay(name: manager.layout.name))
    }

    mutating func openLayoutPicker() {
        guard keepsLayouts else { notice = .error("No layout database"); return }
        overlays.append(LayoutPicker())
        emit(.read(.summaries))
    }

    mutating func openThemePicker() {
        guard keepsLayouts else { notice = .error("No theme folder"); return }
        overlays.append(ThemePicker(original: theme))
        emit(.read(.themeNames))
    }

    /// Applies what earlier IO sent back; every overlay open hears it too (lists and previews
    /// are for the box that asked, the generator's news for the box of its run).
    mutating func receive(_ message: HostMessage) {
        switch message {
        case .input, .start, .shutdown:
            break  // `update` hands these to `handle`, `begin` and `end`
        case .drawn:
            break  // the app loop's
        case .frameShown(let instant):
            return frameShown(at: instant)
        case .layoutsListed:
            // The server's own, with who has each open, follow (`listed`).
            if ports.sharedCanvasRequests != nil { emit(.shared(.list)) }
        case .themesListed, .themeLoaded:
            break
        case .namesListed(let layouts, let themes):
            (palette.layouts, palette.themes) = (layouts, themes)
        case .historyLoaded(let name, let history):
            guard manager.layout.name == name else { return }
            endDrag()
            manager.adoptEarlierHistory(history)
        case .layoutLoaded(let loaded):
            replace(with: loaded)
            let name = loaded.manager.layout.name
            notice = .info(loaded.preset.map { origin in
                origin.isUnchanged ? "Loaded \(name), a preset: your changes will be kept as \(origin.changesKeptAs ?? name)"
                    : "Loaded \(name), your changes to the preset \(origin.preset)"
            } ?? "Loaded \(name)")
        case .sharedLayoutLoaded(let copy):
            openShared(copy)
            notice = .info("Opened \(copy.name), \(shared?.badge ?? "shared")")
        case .shared(let canvas, let news):
            receive(news, canvas: canvas)
        case .themeChosen(let chosen):
            theme = chosen
            emit(.write(.rememberTheme(chosen.name)))
        case .saved(let name):
            notice = .info("Saved as \(name)")
        case .quitSaved(let failure):
            finishQuit(failure: failure)
        case .notice(let message):
            notice = message
        case .widgetNotified(let pane, let mount):
            notifyWidget(pane, mount: mount)
        case .publish(let events):
            for event in events {
                if let catalog = ports.catalogSource?.catalog(after: event, keeping: addedApps) { setCatalog(catalog) }
                if let told = event as? any MessageLineEvent { notice = .info(told.message) }
                if let urgent = event as? any UrgentEvent {
                    let text = urgent.notice { [clock] moment in clock.secondsFromGMT(Date(timeIntervalSince1970: Double(moment))) }
                    notice = .info(text)
                    emit(.alert(text))
                }
                publish(event)
            }
            receiveShared(events)
        case .appGeneration(_, let update):
            receive(update)
        case .appsReinstalled(let descriptors):
            let restarted = takeInstalled(descriptors)
            if restarted > 0 { notice = .info("Restarted \(descriptors.map(\.name).joined(separator: ", ")), installed again") }
        case .appInstalled(let descriptor):
            _ = takeInstalled([descriptor])
            let installed = Notice.info("Installed \(descriptor.name) \(descriptor.version)")
            notice = installed
            addPane(descriptor.kind, name: descriptor.name)
            // What the install did stays said over the layout's new name (`keepChangesApart`; Ctrl-G
            // has both), not over a pane that found no room.
            if notice?.kind != .error { notice = installed }
        }
        tellOverlays(message)
    }

    /// Puts apps installed (again) in the catalog and starts their panes afresh; returns how many.
    private mutating func takeInstalled(_ descriptors: [WidgetDescriptor]) -> Int {
        addedApps.removeAll { added in descriptors.contains { $0.kind == added.kind } }
        addedApps += descriptors
        setCatalog(catalog.adding(descriptors))
        let kinds = Set(descriptors.map(\.kind))
        return remount(manager.panes.filter { kinds.contains($0.app) }.map(\.id))
    }

    /// Hands a message to every overlay open, the one on top first, and carries out what each asks.
    private mutating func tellOverlays(_ message: HostMessage) {
        for index in overlays.indices.reversed() where overlays.indices.contains(index) {
            let context = overlayContext(covered: index < overlays.count - 1)
            let actions = overlays[index].receive(message, context)
            apply(actions, from: index)
        }
    }

    /// Saves the arrangement under `name`; saving under a new name takes the history along.
    mutating func save(as name: String) {
        // A shared canvas under its own name: nothing to save here, and "Saved as" would be untrue.
        if let shared, shared.name == name {
            notice = shared.mayEdit
                ? .info("\(name) is shared: each change is on the server as you make it; Ctrl-S under a new name saves a copy of your own")
                : .info("\(shared.readOnlyReason), or Ctrl-S under a new name saves a copy of your own")
            return
        }
        // A preset stays as its file has it, and no layout of the user's hides it.
        if presetNames.contains(name), !(name == manager.layout.name && preset?.isUnchanged == false) {
            notice = .info("\(name) is a preset and stays as its file has it: save under a name of your own")
            return
        }
        syncWidgetValues()
        // Connected to a team server, a layout saved under a new name is stored there.
        if ports.savesOnServer, shared?.name != name {
            var layout = manager.saveLayout()
            layout.name = name
            emit(.shared(.store(layout)))
            notice = .info("Saving \(name) on the server…")
            return
        }
        let source = manager.layout.name
        if name != source { preset = nil }
        manager.rename(to: name)
        // A shared canvas saved under another name is a layout of this user's from now on.
        if let shared, name != shared.name, let own = try? CanvasManager(layout: manager.layout) {
            closeShared()
            manager = own
        }
        // "Saved as" only once it is saved.
        emit(.write(.save(manager.saveLayout(), continuingHistoryOf: source, announce: true)))
    }

    /// Saves the current layout, then loads another.
    mutating func load(_ name: String) {
        guard keepsLayouts else { return }
        syncWidgetValues()
        emit(.write(.save(manager.saveLayout(), continuingHistoryOf: nil, announce: false)))
        if !openServerLayout(name) { emit(.read(.layout(name))) }
    }

    /// Opens the preset `name` as its file has it (`p` in arrange mode; Ctrl-P in
    /// Ctrl-O): the current layout is saved first, and a layout kept under the preset's own
    /// name moves to the name changes are kept under.
    mutating func restorePreset(_ name: String? = nil) {
        guard keepsLayouts else { notice = .error("No layout database"); return }
        guard let preset = name ?? (shared == nil ? self.preset?.preset : nil) else {
            notice = .info("\(manager.layout.name) was not made from a preset: Ctrl-O lists the presets")
            return
        }
        guard name != nil || self.preset?.isUnchanged != true else {
            notice = .info("\(manager.layout.name) is the preset as its file has it")
            return
        }
        syncWidgetValues()
        emit(.write(.save(manager.saveLayout(), continuingHistoryOf: nil, announce: false)))
        emit(.read(.restorePreset(preset)))
    }
}
