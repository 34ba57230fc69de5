import ServerHTTP
import ServiceLifecycle

/// Returns once the server has had no request and no open stream for `timeout`, so that the
/// embedded local server goes away some time after the last dashboard closed. Run it in the
/// server's service group with `successTerminationBehavior: .gracefullyShutdownGroup`.
///
/// It sleeps until the earliest moment the server could be idle long enough, so it wakes rarely.
package struct IdleExitService: Service {
    let activity: ServerActivity
    let timeout: Duration

    package init(activity: ServerActivity, timeout: Duration) {
        self.activity = activity
        self.timeout = timeout
    }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                let idle = activity.idleTime()
                if let idle, idle >= timeout { return }
                // Busy: look again after a full timeout; idle: when the timeout would run out.
                try await Task.sleep(for: idle.map { timeout - $0 } ?? timeout)
            }
        }
    }
}
