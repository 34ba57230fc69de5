import CanvasCore

/// Saving, loading and theming: Ctrl-S, Ctrl-O and Ctrl-T, and the messages their IO sends back.
extension CanvasHost {
    func openSavePrompt() {
        guard library != nil else { notice = .error("Layouts cannot be saved: no layout database"); return }
        overlay = SavePromptOverlay(name: manager.layout.name)
    }

    func openLayoutPicker() {
        guard library != nil else { notice = .error("No layout database"); return }
        overlay = LayoutPicker()
        listLayouts()
    }

    /// Reads the layouts into `layoutsListed`, for the picker or the palette.
    func listLayouts() {
        guard let library else { return }
        effects.perform {
            do {
                return .layoutsListed(try await library.summaries())
            } catch {
                return .notice(.error("Could not list layouts: \(error)"))
            }
        }
    }

    func openThemePicker() {
        guard let library else { notice = .error("No theme folder"); return }
        overlay = ThemePicker(original: theme)
        effects.perform { .themesListed(await library.themeNames()) }
    }

    /// Loads a theme to preview (`themeLoaded`, for the picker) or to use and keep (`themeChosen`).
    func loadTheme(_ name: String, keep: Bool) {
        guard let library else { return }
        effects.perform {
            do {
                let loaded = try await library.theme(named: name)
                return keep ? .themeChosen(loaded) : .themeLoaded(loaded)
            } catch {
                return .notice(.error("Theme \(name): \(error)"))
            }
        }
    }

    /// Loads the current layout's undo history in the background: start-up shows the layout
    /// first and makes undo reach back across the restart a moment later.
    public func restoreHistory() {
        guard let library else { return }
        let name = manager.layout.name
        effects.perform {
            guard let history = try? await library.history(name) else { return nil }
            return .historyLoaded(layout: name, history)
        }
    }

    /// Applies what the library sent back; lists and previews go to the overlay that asked.
    public func receive(_ message: HostMessage) {
        defer { resizeWidgets() }
        switch message {
        case .layoutsListed, .themesListed, .themeLoaded, .namesListed:
            if case .namesListed(let layouts, let themes) = message { knownNames = (layouts, themes) }
            guard var top = overlay else { return }
            let actions = top.receive(message, overlayContext)
            overlay = top
            apply(actions)
        case .historyLoaded(let name, let history):
            guard manager.layout.name == name else { return }
            endDrag()
            manager.adoptEarlierHistory(history)
        case .layoutLoaded(let loaded):
            replace(with: loaded)
            notice = .info("Loaded \(loaded.layout.name)")
        case .themeChosen(let chosen):
            theme = chosen
            apply([.keepTheme])
        case .saved(let name):
            notice = .info("Saved as \(name)")
        case .quitSaved(let failure):
            finishQuit(failure: failure)
        case .notice(let message):
            notice = message
        case .widgetNotified(let pane, let mount):
            notifyWidget(pane, mount: mount)
        case .publish(let events):
            for event in events { bus.publish(event) }
        case .appGeneration(let run, let update):
            receive(update, of: run)
        case .appsReinstalled(let descriptors):
            addedApps.removeAll { added in descriptors.contains { $0.kind == added.kind } }
            addedApps += descriptors
            catalog = catalog.adding(descriptors)
            let kinds = Set(descriptors.map(\.kind))
            let restarted = remount(manager.panes.filter { kinds.contains($0.app) }.map(\.id))
            if restarted > 0 { notice = .info("Restarted \(descriptors.map(\.name).joined(separator: ", ")), installed again") }
        }
    }

    /// Saves the arrangement under `name`; saving under a new name takes the history along.
    func save(as name: String) {
        syncWidgetValues()
        let source = manager.layout.name
        manager.rename(to: name)
        let layout = manager.saveLayout()
        guard let library else { return }
        // "Saved as" only once it is saved.
        effects.write("save \(name)", then: .saved(name)) {
            if name == source {
                try await library.save(layout)
            } else {
                try await library.save(layout, continuingHistoryOf: source)
            }
        }
    }

    /// Saves the current layout, then loads another.
    func load(_ name: String) {
        guard let library else { return }
        syncWidgetValues()
        let current = manager.saveLayout()
        effects.write("save \(current.name)") { try await library.save(current) }
        effects.perform {
            do {
                return .layoutLoaded(try await library.load(name))
            } catch {
                return .notice(.error("Could not load \(name): \(error)"))
            }
        }
    }
}
