import CanvasCore
import Logging

/// The host notes frames as they reach the screen, logs the times and writes them to the
/// library once every pane of the start shows its content.
extension HostState {
    /// True while a pane's content has not been on the screen yet: the app loop then reports
    /// each frame it shows (`frameShown`).
    public var isLoading: Bool {
        mounted.values.contains { $0.loading != nil }
    }

    mutating func frameShown(at instant: ContinuousClock.Instant) {
        for (id, entry) in mounted {
            guard let mountedAt = entry.loading, entry.failure != nil || !(entry.widget?.isWaitingForContent ?? false) else { continue }
            mounted[id]?.loading = nil
            let pane = loadTiming.paneShown(entry.kind, mounted: mountedAt, at: instant)
            logger.info("pane loaded", metadata: ["app": "\(entry.kind)", "microAppLoadTime": "\(Self.milliseconds(pane.microAppLoadTime))"])
        }
        guard !isLoading, let times = loadTiming.everyPaneShown(layout: manager.layout.name, at: instant) else { return }
        logger.info("canvas loaded", metadata: ["layout": "\(times.layout)", "canvasLoadTime": "\(Self.milliseconds(times.canvasLoadTime))"])
        emit(.write(.loadTimes(times)))
    }

    private static func milliseconds(_ time: Duration) -> String {
        let tenths = (time.fractionalMilliseconds * 10).rounded()
        return "\(tenths / 10) ms"
    }
}
