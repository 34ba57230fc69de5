import CanvasCore

/// "New micro-app…": the generator runs off the main actor and its news comes back as
/// `HostMessage.appGeneration`; the app written waits here for the overlay's review until it is
/// installed or turned down (nothing of it is on disk before it is installed).
extension CanvasHost {
    /// Opens the box; a run left going under another box (the quit box took its place) is stopped.
    func openNewApp() {
        guard let appGenerator else { return }
        discardGeneratedApp()
        overlay = NewAppOverlay()
        let run = appGenerationRun
        effects.perform { .appGeneration(run: run, .checked(problem: await appGenerator.problem())) }
    }

    /// Starts writing an app from `description`; a run already under way is stopped first.
    func generateApp(_ description: String) {
        guard let appGenerator else { return }
        discardGeneratedApp()
        let effects = effects
        let run = appGenerationRun
        logger.info("writing a micro-app")
        appGeneration = Task.detached {
            let update: AppGenerationUpdate
            do {
                update = .ready(try await appGenerator.generate(description) { effects.post(.appGeneration(run: run, .progress($0))) })
            } catch {
                update = .failed("\(error)")
            }
            effects.post(.appGeneration(run: run, update))
        }
    }

    /// Installs the app under review; its pane is added once it is installed. A write, so that
    /// quitting waits for it: the app is installed whole or not at all.
    func installGeneratedApp() {
        guard let review = pendingReview else { return }
        pendingReview = nil
        let (effects, run) = (effects, appGenerationRun)
        effects.write("install \(review.name)") {
            do {
                effects.post(.appGeneration(run: run, .installed(try await review.install())))
            } catch {
                effects.post(.appGeneration(run: run, .installFailed("\(error)")))
            }
        }
    }

    /// Stops the generator, or forgets the app it wrote; news of that run is ignored from now on.
    func discardGeneratedApp() {
        appGeneration?.cancel()
        appGeneration = nil
        pendingReview = nil
        appGenerationRun += 1
    }

    /// Waits for a run stopped at shutdown to end (cancelled, it ends at once, its trial folder
    /// removed): call after `shutdown()`.
    public func generatorStopped() async {
        await stoppedGeneration?.value
    }

    /// News of run `run` of the generator: a run stopped or turned down since is ignored, but an
    /// app installed is listed in the catalog whatever happened to its box meanwhile.
    func receive(_ update: AppGenerationUpdate, of run: Int) {
        if case .installed(let descriptor) = update {
            logger.info("micro-app installed", metadata: ["app": "\(descriptor.kind)"])
            addedApps.append(descriptor)
            catalog = catalog.adding(descriptor)
        }
        guard run == appGenerationRun else { return }
        switch update {
        case .ready(let review):
            appGeneration = nil
            pendingReview = review
        case .failed:
            appGeneration = nil
            logger.info("micro-app not written")
        case .installed(let descriptor):
            // Its pane only while the box that asked for it shows (not under the quit box).
            guard overlay is NewAppOverlay else { return }
            overlay = nil
            addInstalledApp(descriptor)
            return
        case .progress, .installFailed, .checked:
            break
        }
        guard var top = overlay as? NewAppOverlay else { return }
        apply(top.receive(.appGeneration(run: run, update), overlayContext))
        overlay = top
    }

    /// Adds the pane of an app just installed; when the canvas has no room, says it is installed
    /// all the same.
    private func addInstalledApp(_ descriptor: WidgetDescriptor) {
        let panes = manager.panes.count
        apply([.addPane(descriptor.kind, name: descriptor.name)])
        if manager.panes.count > panes {
            notice = .info("Installed \(descriptor.name): its pane asks before the app runs")
        } else {
            notice = .error("Installed \(descriptor.name), but its pane did not fit (\(notice?.text ?? "no room")): "
                            + "add it from the catalog once there is room")
        }
    }
}
