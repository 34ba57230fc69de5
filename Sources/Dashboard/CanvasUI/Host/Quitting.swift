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

/// Quitting, as a value: the arrangement and every widget's state are saved before the loop
/// ends, so that a failed save (a full disk, a read-only file) is shown while the terminal is
/// still the dashboard's, and the user decides whether to quit anyway.
public struct Quitting: Equatable, Sendable {
    /// How far saving the layout got.
    public private(set) var save: QuitSave = .notTried
    /// The loop ends at the next turn.
    public private(set) var shouldQuit = false

    public enum Effect: Equatable, Sendable {
        /// Open the quit box and queue the save, after every write asked for before it; its
        /// outcome comes back as `saved(failure:)`.
        case saveFirst
        /// Log why the save failed (the quit box shows it).
        case saveFailed(String)
    }

    /// A quit key: with somewhere to save (`canSave`), saves the layout first and quits once it
    /// is saved; without, quits at once. A quit key while the save is running, or after it
    /// failed, quits without waiting for (or retrying) the save.
    public mutating func request(canSave: Bool) -> [Effect] {
        guard canSave else {
            shouldQuit = true
            return []
        }
        switch save {
        case .saving:
            shouldQuit = true
            return []
        case .failed:
            save = .declined
            shouldQuit = true
            return []
        case .notTried, .saved, .declined:
            save = .saving
            return [.saveFirst]
        }
    }

    /// The outcome of the save `request` asked for.
    public mutating func saved(failure: String?) -> [Effect] {
        guard save == .saving else { return [] }
        guard let failure else {
            save = .saved
            shouldQuit = true
            return []
        }
        save = .failed(failure)
        return [.saveFailed(failure)]
    }

    /// After a failed save, the user chose to stay: a later quit key saves again.
    public mutating func stay() {
        save = .notTried
    }
}
