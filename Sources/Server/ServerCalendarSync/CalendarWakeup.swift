import Synchronization

/// Wakes the calendar refresher before its sleep ends: a change made here to a synced calendar
/// is sent at once, not at the next round. A wake while it works is kept for its next sleep.
package final class CalendarWakeup: Sendable {
    private let state = Mutex<(woken: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    package init() {}

    package func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.woken = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Sleeps `seconds`, or until woken.
    func sleep(seconds: Int64) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            group.addTask { await self.woken() }
            await group.next()
            group.cancelAll()
        }
    }

    private func woken() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.woken || Task.isCancelled {
                        state.woken = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
