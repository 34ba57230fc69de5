import CanvasCore

/// The widgets' lifecycle: mounted for new panes, unmounted for gone ones, subscribed to the bus,
/// and every call into one guarded so that what it throws shows in its own pane.
extension CanvasHost {
    /// Mounts widgets for new panes and unmounts those whose panes are gone.
    func reconcileWidgets() {
        let live = Set(manager.panes.map(\.id))
        for id in mounted.keys where !live.contains(id) { unmount(id) }
        for pane in manager.panes where mounted[pane.id] == nil { mount(pane) }
        resizeWidgets()
    }

    /// Uses `catalog` from now on: a pane of a kind it did not know (a remote app before the
    /// registry was read) is mounted as soon as it does.
    func setCatalog(_ catalog: WidgetCatalog) {
        self.catalog = catalog
        mountNewlyKnownKinds()
    }

    /// Mounts the panes shown as unavailable whose kind the catalog now has.
    private func mountNewlyKnownKinds() {
        let known = manager.panes.filter { pane in
            guard let entry = mounted[pane.id] else { return false }
            return entry.widget == nil && entry.failure == nil && catalog.descriptor(for: pane.app) != nil
        }
        guard !known.isEmpty else { return }
        _ = remount(known.map(\.id))
    }

    /// Mounts the widgets of `panes` afresh (their kind's descriptor changed), with the settings
    /// and state their widgets had; returns how many.
    func remount(_ panes: [PaneID]) -> Int {
        syncWidgetValues()
        let found = manager.panes.filter { panes.contains($0.id) }
        for pane in found {
            unmount(pane.id)
            mount(pane)
        }
        resizeWidgets()
        return found.count
    }

    private func mount(_ pane: Pane) {
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
        entry.subscriptions = subscribe(id, to: entry.widget?.subscriptions ?? [])
        mounted[id] = entry
        carryOut(asked, for: id)
    }

    /// Subscribes a pane's widget afresh, when a setting changed the events it listens to.
    func resubscribe(_ id: PaneID) {
        mounted[id]?.subscriptions.forEach { $0.cancel() }
        let patterns = mounted[id]?.widget?.subscriptions ?? []
        mounted[id]?.subscriptions = subscribe(id, to: patterns)
    }

    private func subscribe(_ id: PaneID, to patterns: [EventPattern]) -> [Subscription] {
        patterns.map { pattern in
            bus.subscribe(pattern) { [weak self] event in try self?.deliver(event, to: id) }
        }
    }

    func unmount(_ id: PaneID) {
        guard let entry = mounted.removeValue(forKey: id) else { return }
        entry.subscriptions.forEach { $0.cancel() }
        var widget = entry.widget
        ports.willCallWidget?(entry.kind, "unmounting its pane")
        widget?.unmount()
    }

    /// Delivers a bus event to a pane's widget; a failure shows in the pane and is rethrown so
    /// the bus reports it as `canvas.listener.failed`.
    private func deliver(_ event: CanvasEvent, to id: PaneID) throws {
        guard mounted[id]?.failure == nil else { return }
        do {
            if let kind = mounted[id]?.kind { ports.willCallWidget?(kind, "handing it a bus event") }
            let asked = try mounted[id]?.widget?.receive(event) ?? .none
            carryOut(asked, for: id)
        } catch {
            mounted[id]?.failure = "\(error)"
            throw error
        }
    }

    /// Does what a widget asked: publishes its events with its pane as the source, and hands its
    /// requests to the dashboard's handler.
    func carryOut(_ asked: WidgetEffects, for id: PaneID) {
        for event in asked.events { bus.publish(event, from: id) }
        for request in asked.requests { emit(.widgetRequest(request)) }
    }

    /// A widget call that may ask for something, carried out once the call is done.
    func withWidgetEffects(_ id: PaneID, doing: StaticString, _ body: (inout any Widget) throws -> WidgetEffects) {
        guard let asked = withWidget(id, doing: doing, body) else { return }
        carryOut(asked, for: id)
    }

    /// Hands a widget an input; nil when it has none or failed.
    func send(_ input: InputEvent, to id: PaneID) -> InputDisposition? {
        guard let result = withWidget(id, doing: "handing it a key or the mouse", { try $0.handle(input) }) else { return nil }
        carryOut(result.effects, for: id)
        return result.disposition
    }

    /// Runs a widget call, showing what it throws in the widget's own pane; `doing` says what
    /// it is, for a crash's note.
    func withWidget<T>(_ id: PaneID, doing: StaticString, _ body: (inout any Widget) throws -> T) -> T? {
        guard let entry = mounted[id], entry.failure == nil, entry.widget != nil else { return nil }
        ports.willCallWidget?(entry.kind, doing)
        do {
            return try bus.holdingDelivery { try body(&mounted[id]!.widget!) }
        } catch {
            mounted[id]?.failure = "\(error)"
            logger.error("widget failed", metadata: ["pane": "\(id)", "error": "\(error)"])
            return nil
        }
    }

    /// Copies every widget's settings and state into the layout.
    func syncWidgetValues() {
        for (id, entry) in mounted {
            guard let widget = entry.widget else { continue }
            manager.updateValues(of: id, config: widget.config, state: widget.state)
        }
    }
}
