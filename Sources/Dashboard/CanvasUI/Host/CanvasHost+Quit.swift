import CanvasCore

/// The host carries out what `Quitting` asks.
extension CanvasHost {
    /// How far saving the layout on quit got.
    public var quitSave: QuitSave { quitting.save }
    public var shouldQuit: Bool { quitting.shouldQuit }

    func requestQuit() {
        carryOut(quitting.request(canSave: library != nil))
    }

    /// The outcome of the save `requestQuit()` queued (the quit box hears it too).
    func finishQuit(failure: String?) {
        carryOut(quitting.saved(failure: failure))
    }

    private func carryOut(_ effects: [Quitting.Effect]) {
        for effect in effects {
            switch effect {
            case .saveFirst:
                overlays.append(QuitOverlay(failure: nil))
                emit(.write(.saveOnQuit(currentLayout())))
            case .saveFailed(let failure):
                logger.error("could not save the layout on quit", metadata: ["error": "\(failure)"])
            }
        }
    }
}
