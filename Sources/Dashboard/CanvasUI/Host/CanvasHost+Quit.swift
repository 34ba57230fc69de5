import CanvasCore

/// The host carries out what `Quitting` asks.
extension HostState {
    /// How far saving the layout on quit got.
    public var quitSave: QuitSave { quitting.save }
    public var shouldQuit: Bool { quitting.shouldQuit }

    mutating func requestQuit() {
        carryOut(quitting.request(canSave: keepsLayouts))
    }

    /// The outcome of the save `requestQuit()` queued (the quit box hears it too).
    mutating func finishQuit(failure: String?) {
        carryOut(quitting.saved(failure: failure))
    }

    private mutating func carryOut(_ effects: [Quitting.Effect]) {
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
