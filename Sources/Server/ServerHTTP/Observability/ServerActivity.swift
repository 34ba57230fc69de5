import Hummingbird
import Synchronization

/// When the server last did anything, and what is open now: what `IdleExitService` decides on.
///
/// A request counts from its start to its response; a live event stream counts as long as it is
/// open, so a dashboard that is merely connected keeps the server alive.
package final class ServerActivity: Sendable {
    private struct State {
        var lastActive: ContinuousClock.Instant
        var open = 0
    }

    private let state: Mutex<State>

    package init() {
        state = Mutex(State(lastActive: .now))
    }

    /// How long the server has had nothing open, or nil while something is.
    package func idleTime() -> Duration? {
        state.withLock { $0.open > 0 ? nil : $0.lastActive.duration(to: .now) }
    }

    /// Marks the start of a request or stream; call `end()` when it is over.
    package func begin() {
        state.withLock { $0.open += 1; $0.lastActive = .now }
    }

    package func end() {
        state.withLock { $0.open -= 1; $0.lastActive = .now }
    }
}

/// Counts every request as activity while it is handled.
package struct ActivityMiddleware<Context: RequestContext>: RouterMiddleware {
    let activity: ServerActivity

    package init(activity: ServerActivity) {
        self.activity = activity
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        activity.begin()
        defer { activity.end() }
        return try await next(request, context)
    }
}
