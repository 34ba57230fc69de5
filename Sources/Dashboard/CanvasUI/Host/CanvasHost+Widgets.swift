import CanvasCore

/// The widgets' lifecycle: mounted for new panes, unmounted for gone ones, handed the events they
/// subscribe to, and every call into one guarded so that what it throws shows in its own pane.
extension HostState {
    /// Mounts widgets for new panes and unmounts those whose panes are gone.
    mutating func reconcileWidgets() {
        let live = Set(manager.panes.map(\.id))
        for id in mounted.keys where !live.contains(id) { unmount(id) }
        for pane in manager.panes where mounted[pane.id] == nil { mount(pane) }
        resizeWidgets()
    }

    /// Uses `catalog` from now on: a pane of a kind it did not know (a remote app before the
    /// registry was read) is mounted as soon as it does.
    mutating func setCatalog(_ catalog: WidgetCatalog) {
        self.catalog = catalog
        mountNewlyKnownKinds()
    }

    /// Mounts the panes shown as unavailable whose kind the catalog now has.
    private mutating func mountNewlyKnownKinds() {
        let known = manager.panes.filter { pane in
            guard let entry = mounted[pane.id] else { return false }
            return entry.widget == nil && entry.failure == nil && catalog.descriptor(for: pane.app) != nil
        }
        guard !known.isEmpty else { return }
        _ = remount(known.map(\.id))
    }

    /// Mounts the widgets of `panes` afresh (their kind's descriptor changed), with the settings
    /// and state their widgets had; returns how many.
    mutating func remount(_ panes: [PaneID]) -> Int {
        syncWidgetValues()
        let found = manager.panes.filter { panes.contains($0.id) }
        for pane in found {
            unmount(pane.id)
            mount(pane)
        }
        resizeWidgets()
        return found.count
    }

    private mutating func mount(_ pane: Pane) {
        toldArrangement = nil  // the new widget is told its pane
        guard let descriptor = catalog.descriptor(for: pane.app) else {
            logger.warning("unknown app kind in layout", metadata: ["app": "\(pane.app)", "pane": "\(pane.id)"])
            mounted[pane.id] = MountedWidget(kind: pane.app, widget: nil)
            return
        }
        mounts += 1
        var entry = MountedWidget(kind: pane.app, mount: mounts, widget: descriptor.make(pane.config, pane.state))
        let (mailbox, id, mount) = (mailbox, pane.id, mounts)
        let context = WidgetContext(pane: id, bus: bus, clock: clock, logger: logger,
                                    notify: { mailbox.post(.widgetNotified(id, mount: mount)) })
        var asked = WidgetEffects.none
        do {
            ports.willCallWidget?(pane.app, "mounting its pane")
            asked = try entry.widget?.mount(context) ?? .none
        } catch {
            entry.failure = "\(error)"
            logger.error("widget failed to mount", metadata: ["app": "\(pane.app)", "error": "\(error)"])
        }
        if let patterns = entry.widget?.subscriptions, !patterns.isEmpty {
            listeners.append(EventListener(pane: id, mount: entry.mount, patterns: patterns))
        }
        mounted[id] = entry
        carryOut(asked, for: id)
    }

    /// Takes a pane's widget's subscriptions afresh, when a setting changed the events it listens to.
    mutating func resubscribe(_ id: PaneID) {
        guard let mount = mounted[id]?.mount else { return }
        let patterns = mounted[id]?.widget?.subscriptions ?? []
        listeners.removeAll { $0.pane == id }
        if !patterns.isEmpty { listeners.append(EventListener(pane: id, mount: mount, patterns: patterns)) }
    }

    mutating func unmount(_ id: PaneID) {
        guard let entry = mounted.removeValue(forKey: id) else { return }
        toldArrangement = nil
        listeners.removeAll { $0.pane == id }
        var widget = entry.widget
        ports.willCallWidget?(entry.kind, "unmounting its pane")
        widget?.unmount()
    }

    /// Publishes an event on the canvas: the bus logs it (and tells listeners outside the
    /// canvas), and every widget whose subscriptions match hears it, once the widget being
    /// called, if any, is done.
    mutating func publish(_ payload: any BusEvent, from source: PaneID? = nil) {
        undelivered.append(bus.publish(payload, from: source))
        guard !isDelivering else { return }
        deliverUndelivered()
    }

    /// Hands out the events waiting, in publish order, with those they lead to; listeners that
    /// publish on every event they hear stop at `EventCascade.limit`.
    private mutating func deliverUndelivered() {
        isDelivering = true
        defer { isDelivering = false }
        while let step = undelivered.next() {
            switch step {
            case .deliver(let event): deliver(event)
            case .overflow(let dropped): bus.publish(ListenerFailed.overflow(dropped: dropped))
            }
        }
    }

    /// Hands an event to every widget subscribed to it, in the order they were mounted; a
    /// failure shows in the widget's pane and is published as `canvas.listener.failed`.
    private mutating func deliver(_ event: CanvasEvent) {
        // A snapshot: a widget mounted meanwhile starts with the next event.
        for listener in listeners {
            let id = listener.pane
            // Mounted still (not removed by an earlier listener), and not failed meanwhile.
            guard let pattern = listener.patterns.first(where: { $0.matches(event.name) }), mounted[id]?.mount == listener.mount,
                  mounted[id]?.failure == nil, let kind = mounted[id]?.kind else { continue }
            ports.willCallWidget?(kind, "handing it a bus event")
            do {
                let asked = try mounted[id]?.widget?.receive(event) ?? .none
                carryOut(asked, for: id)
            } catch {
                mounted[id]?.failure = "\(error)"
                logger.error("widget failed on an event", metadata: ["pane": "\(id)", "event": "\(event.name)", "error": "\(error)"])
                // Never report a failure to handle a failure report: that could loop forever.
                guard event.name != ListenerFailed.name else { continue }
                publish(ListenerFailed(event: event.name, pattern: pattern.description, error: "\(error)"))
            }
        }
    }

    /// Does what a widget asked: publishes its events with its pane as the source, and hands its
    /// requests to the dashboard's handler.
    mutating func carryOut(_ asked: WidgetEffects, for id: PaneID) {
        for event in asked.events { publish(event, from: id) }
        for request in asked.requests { emit(.widgetRequest(request)) }
    }

    /// A widget call that may ask for something, carried out once the call is done.
    mutating func withWidgetEffects(_ id: PaneID, doing: StaticString, _ body: (inout any Widget) throws -> WidgetEffects) {
        guard let asked = withWidget(id, doing: doing, body) else { return }
        carryOut(asked, for: id)
    }

    /// Hands a widget an input; nil when it has none or failed.
    mutating func send(_ input: InputEvent, to id: PaneID) -> InputDisposition? {
        guard let result = withWidget(id, doing: "handing it a key or the mouse", { try $0.handle(input) }) else { return nil }
        carryOut(result.effects, for: id)
        return result.disposition
    }

    /// Runs a widget call, showing what it throws in the widget's own pane; `doing` says what
    /// it is, for a crash's note.
    mutating func withWidget<T>(_ id: PaneID, doing: StaticString, _ body: (inout any Widget) throws -> T) -> T? {
        guard let entry = mounted[id], entry.failure == nil, entry.widget != nil else { return nil }
        ports.willCallWidget?(entry.kind, doing)
        // What the widget publishes meanwhile is handed out once it is done.
        let outermost = !isDelivering
        isDelivering = true
        defer { if outermost { deliverUndelivered() } }
        do {
            return try body(&mounted[id]!.widget!)
        } catch {
            mounted[id]?.failure = "\(error)"
            logger.error("widget failed", metadata: ["pane": "\(id)", "error": "\(error)"])
            return nil
        }
    }

    /// Copies every widget's settings and state into the layout. A preset whose settings
    /// changed is kept apart from then on (`keepChangesApart`).
    mutating func syncWidgetValues() {
        for (id, entry) in mounted {
            guard let widget = entry.widget else { continue }
            manager.updateValues(of: id, config: widget.config, state: widget.state)
        }
        if let presetSettings, case let shown = settingsShown(), presetSettings != shown {
            let changed = shown.keys.filter { presetSettings[$0] != shown[$0] }.map(\.rawValue).sorted()
            logger.debug("a preset's settings changed", metadata: ["panes": "\(changed)"])
            _ = keepChangesApart()
        }
    }

    /// Each pane's settings as its widget has them, defaults filled in.
    func settingsShown() -> [PaneID: WidgetValues] {
        Dictionary(manager.panes.map { pane in (pane.id, mounted[pane.id]?.widget?.config ?? pane.config) },
                   uniquingKeysWith: { first, _ in first })
    }
}
