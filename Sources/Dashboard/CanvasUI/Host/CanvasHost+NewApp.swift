import CanvasCore

/// "New micro-app…": the box (`NewAppOverlay`) holds the whole of its state; the generator runs
/// in `HostIO`, and its news comes back as `HostMessage.appGeneration` for the box of its run.
extension HostState {
    /// Opens the box; a run left going is stopped.
    mutating func openNewApp() {
        guard ports.appGenerator != nil else { return }
        newAppBoxes += 1
        overlays.append(NewAppOverlay(run: newAppBoxes))
        emit(.generator(.stop))
        emit(.generator(.check(run: newAppBoxes)))
    }

    /// News of the generator: an app installed is listed in the catalog whatever happened to its
    /// box meanwhile; the rest is the box's.
    mutating func receive(_ update: AppGenerationUpdate) {
        guard case .installed(let descriptor) = update else { return }
        logger.info("micro-app installed", metadata: ["app": "\(descriptor.kind)"])
        addedApps.append(descriptor)
        setCatalog(catalog.adding(descriptor))
    }

    /// Adds the pane of an app just installed; when the canvas has no room, says it is installed
    /// all the same.
    mutating func addInstalledApp(_ descriptor: WidgetDescriptor) {
        let panes = manager.panes.count
        addPane(descriptor.kind, name: descriptor.name)
        if manager.panes.count > panes {
            notice = .info("Installed \(descriptor.name): its pane asks before the app runs")
        } else {
            notice = .error("Installed \(descriptor.name), but its pane did not fit (\(notice?.text ?? "no room")): "
                            + "add it from the catalog once there is room")
        }
    }
}
