import CanvasCore

/// "New micro-app…": the generator runs off the main actor and its news comes back as
/// `HostMessage.appGeneration`; the app written waits here for the overlay's review until it is
/// installed or turned down (nothing of it is on disk before it is installed).
extension CanvasHost {
    func openNewApp() {
        guard appGenerator != nil else { return }
        overlay = NewAppOverlay()
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

    /// Installs the app under review; its pane is added once it is installed.
    func installGeneratedApp() {
        guard let review = pendingReview else { return }
        pendingReview = nil
        let (effects, run) = (effects, appGenerationRun)
        effects.perform {
            do {
                return .appGeneration(run: run, .installed(try await review.install()))
            } catch {
                return .appGeneration(run: run, .installFailed("\(error)"))
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

    /// News of run `run` of the generator: a run stopped or turned down since is ignored.
    func receive(_ update: AppGenerationUpdate, of run: Int) {
        guard run == appGenerationRun else { return }
        switch update {
        case .ready(let review):
            appGeneration = nil
            pendingReview = review
        case .failed:
            appGeneration = nil
            logger.info("micro-app not written")
        case .installed(let descriptor):
            logger.info("micro-app installed", metadata: ["app": "\(descriptor.kind)"])
            generatedApps.append(descriptor)
            catalog = catalog.adding(descriptor)
            if overlay is NewAppOverlay { overlay = nil }
            apply([.addPane(descriptor.kind, name: descriptor.name)])
            notice = .info("Installed \(descriptor.name): its pane asks before the app runs")
            return
        case .progress, .installFailed:
            break
        }
        guard var top = overlay as? NewAppOverlay else { return }
        apply(top.receive(.appGeneration(run: run, update), overlayContext))
        overlay = top
    }
}
