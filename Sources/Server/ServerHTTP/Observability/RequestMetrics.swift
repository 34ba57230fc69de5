import Foundation
import Hummingbird
import Prometheus
import Synchronization

/// Request counts and latencies per route, method and status, in Prometheus text format for `/metrics`.
///
/// Each app instance has its own registry (not the process-wide `MetricsSystem`), so two servers in
/// one process (tests, an embedded server) never mix their numbers.
package final class RequestMetrics: Sendable {
    private struct Key: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Series {
        let count: Counter
        let duration: DurationHistogram
    }

    private let registry = PrometheusCollectorRegistry()
    private let series = Mutex([Key: Series]())
    private static let buckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(2.5),
    ]

    package init() {}

    /// Counts one request to `route` (the route pattern, e.g. `/api/todo/items/{id}`, so ids do not
    /// make a series each; `NotFound` for every unknown path, as Hummingbird names it) that took
    /// `duration` to answer.
    func record(route: String, method: String, status: Int, duration: Duration) {
        let key = Key(route: route, method: method, status: status)
        let series = self.series.withLock { series in
            if let existing = series[key] { return existing }
            let labels = [("route", route), ("method", method), ("status", String(status))]
            let made = Series(
                count: registry.makeCounter(
                    descriptor: .init(metricName: "bff_http_requests", unitName: "total", helpText: "HTTP requests answered."),
                    labels: labels
                ),
                duration: registry.makeDurationHistogram(
                    descriptor: .init(
                        metricName: "bff_http_request_duration", unitName: "seconds",
                        helpText: "Time from request to response head."
                    ),
                    labels: labels, buckets: Self.buckets
                )
            )
            series[key] = made
            return made
        }
        series.count.increment()
        series.duration.record(duration)
    }

    /// Every series in the Prometheus text exposition format.
    package func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}

/// Times every request and records it in `RequestMetrics`, errors included (by the status the
/// client will see).
package struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    package init(metrics: RequestMetrics) {
        self.metrics = metrics
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.record(
            route: context.endpointPath ?? "NotFound", method: request.method.rawValue,
            status: response.status.code, duration: ContinuousClock.now - start
        )
        return response
    }
}
