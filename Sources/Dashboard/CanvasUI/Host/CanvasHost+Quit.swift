import CanvasCore

/// How far saving the layout on quit got.
public enum QuitSave: Equatable, Sendable {
    /// Not asked to quit yet, or asked without a library to save to.
    case notTried
    /// The save is queued or running.
    case saving
    /// Saved: nothing is left to save.
    case saved
    /// The save failed, with the reason shown to the user.
    case failed(String)
    /// The save failed and the user chose to quit without saving.
    case declined

    /// True when the dashboard has nothing left to save after the loop ends.
    public var isSettled: Bool { self == .saved || self == .declined }
}

/// Quitting: the arrangement and every widget's state are saved before the loop ends, so that a
/// failed save (a full disk, a read-only file) is shown while the terminal is still the
/// dashboard's, and the user decides whether to quit anyway.
extension CanvasHost {
    /// A quit key: with a library, saves the layout first and quits once it is saved; without
    /// one, quits at once. A quit key while the save is running, or after it failed, quits
    /// without waiting for (or retrying) the save.
    func requestQuit() {
        guard library != nil else { shouldQuit = true; return }
        switch quitSave {
        case .saving:
            shouldQuit = true
        case .failed:
            quitSave = .declined
            shouldQuit = true
        case .notTried, .saved, .declined:
            quitSave = .saving
            overlays.append(QuitOverlay(failure: nil))
            // After every write asked for before it; its outcome comes back as `.quitSaved`.
            emit(.write(.saveOnQuit(currentLayout())))
        }
    }

    /// The outcome of the save `requestQuit()` queued (the quit box hears it too).
    func finishQuit(failure: String?) {
        guard quitSave == .saving else { return }
        guard let failure else {
            quitSave = .saved
            shouldQuit = true
            return
        }
        logger.error("could not save the layout on quit", metadata: ["error": "\(failure)"])
        quitSave = .failed(failure)
    }
}
