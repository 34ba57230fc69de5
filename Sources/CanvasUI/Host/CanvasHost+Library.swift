import CanvasCore

/// Saving, loading and theming: Ctrl-S, Ctrl-O and Ctrl-T, and the messages their IO sends back.
extension CanvasHost {
    func openSavePrompt() {
        guard library != nil else { notice = .error("Layouts cannot be saved: no layout database"); return }
        mode = .savePrompt(TextField(manager.layout.name, limit: 64))
    }

    func openLayoutPicker() {
        guard let library else { notice = .error("No layout database"); return }
        mode = .layoutPicker(LayoutPicker())
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
        mode = .themePicker(ThemePicker(original: theme))
        effects.perform { .themesListed(await library.themeNames()) }
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

    /// Applies what the library sent back.
    public func receive(_ message: HostMessage) {
        defer { resizeWidgets() }
        switch message {
        case .layoutsListed(let items):
            guard case .layoutPicker(var picker) = mode else { return }
            picker.items = items
            picker.selected = items.firstIndex { $0.name == manager.layout.name } ?? 0
            mode = .layoutPicker(picker)
        case .historyLoaded(let name, let history):
            guard manager.layout.name == name else { return }
            manager.adoptEarlierHistory(history)
        case .layoutLoaded(let loaded):
            replace(with: loaded)
            notice = .info("Loaded \(loaded.layout.name)")
        case .themesListed(let names):
            guard case .themePicker(var picker) = mode else { return }
            picker.names = names
            picker.selected = names.firstIndex(of: theme.name) ?? 0
            mode = .themePicker(picker)
        case .themeLoaded(let loaded):
            // Previews load concurrently and may arrive out of order: show only the highlighted one.
            guard case .themePicker(let picker) = mode, let names = picker.names,
                  names.indices.contains(picker.selected), names[picker.selected] == loaded.name else { return }
            theme = loaded
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
        }
    }

    func handleSavePrompt(_ key: Key, field: TextField) {
        var field = field
        switch key.code {
        case .escape: mode = .normal
        case .enter:
            let name = field.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return }
            mode = .normal
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
        default:
            _ = field.edit(key)
            mode = .savePrompt(field)
        }
    }

    func handleLayoutPicker(_ key: Key, picker: LayoutPicker) {
        var picker = picker
        switch picker.action {
        case .confirmingDelete(let name):
            picker.action = .browsing
            if key == .char("y") || key == .char("Y") {
                picker.items?.removeAll { $0.name == name && !$0.isPreset }
                picker.move(by: 0)
                persist("delete \(name)") { try await $0.delete(name) }
            }
        case .renaming(let name, var field):
            switch key.code {
            case .escape: picker.action = .browsing
            case .enter:
                let newName = field.text.trimmingCharacters(in: .whitespaces)
                picker.action = .browsing
                guard !newName.isEmpty, newName != name else { break }
                // The store refuses a taken name; refuse it here too, before the current layout is renamed.
                if picker.items?.contains(where: { $0.name == newName && !$0.isPreset }) == true {
                    notice = .error("A layout named '\(newName)' already exists")
                    picker.action = .renaming(name, field)
                    break
                }
                if name == manager.layout.name { manager.rename(to: newName) }
                persist("rename \(name)") { try await $0.rename(name, to: newName) }
                openLayoutPicker()
                return
            default:
                _ = field.edit(key)
                picker.action = .renaming(name, field)
            }
        case .filtering:
            switch key.code {
            case .escape, .enter, .down, .up: picker.action = .browsing
            default:
                _ = picker.filter.edit(key)
                picker.selected = 0
            }
        case .browsing:
            switch key.code {
            case .escape: mode = .normal; return
            case .up: picker.move(by: -1)
            case .down: picker.move(by: 1)
            case .enter:
                guard let item = picker.highlighted else { return }
                mode = .normal
                load(item.name)
                return
            case .char("d") where key.modifiers.isEmpty:
                guard let item = picker.highlighted else { return }
                guard !item.isPreset else { notice = .info("\(item.name) is a preset file; it cannot be deleted here"); return }
                guard item.name != manager.layout.name else {
                    notice = .info("\(item.name) is open; load another layout before deleting it")
                    return
                }
                picker.action = .confirmingDelete(item.name)
            case .char("r") where key.modifiers.isEmpty:
                guard let item = picker.highlighted, !item.isPreset else { return }
                picker.action = .renaming(item.name, TextField(item.name, limit: 64))
            case .char("/") where key.modifiers.isEmpty:
                picker.action = .filtering
            default:
                // Any other typing starts the filter with that character.
                if key.text != nil, picker.filter.edit(key) {
                    picker.action = .filtering
                    picker.selected = 0
                }
            }
        }
        mode = .layoutPicker(picker)
    }

    /// Saves the current layout, then loads another.
    private func load(_ name: String) {
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

    func handleThemePicker(_ key: Key, picker: ThemePicker) {
        var picker = picker
        let names = picker.names ?? []
        switch key.code {
        case .escape:
            theme = picker.original
            mode = .normal
            return
        case .enter:
            mode = .normal
            let name = theme.name
            persist("remember the theme") { try await $0.remember(theme: name) }
            return
        case .up: picker.selected = max(0, picker.selected - 1)
        case .down: picker.selected = min(max(0, names.count - 1), picker.selected + 1)
        default: return
        }
        mode = .themePicker(picker)
        guard names.indices.contains(picker.selected), let library else { return }
        let name = names[picker.selected]
        effects.perform {
            do {
                return .themeLoaded(try await library.theme(named: name))
            } catch {
                return .notice(.error("Theme \(name): \(error)"))
            }
        }
    }
}
