import CanvasCore
import Logging

/// How long the canvas and each pane took to show their content (`LoadTimes`), noted as frames
/// reach the screen, logged, and written to the library once every pane of the start shows it.
extension CanvasHost {
    /// True while a pane's content has not been on the screen yet: the app loop then reports
    /// each frame it shows (`frameShown`).
    public var isLoading: Bool {
        mounted.values.contains { $0.loading != nil }
    }

    func frameShown(at instant: ContinuousClock.Instant) {
        for (id, entry) in mounted {
            guard let mountedAt = entry.loading, entry.failure != nil || !(entry.widget?.isWaitingForContent ?? false) else { continue }
            mounted[id]?.loading = nil
            let time = max(.zero, mountedAt.duration(to: instant))
            logger.info("pane loaded", metadata: ["app": "\(entry.kind)", "microAppLoadTime": "\(Self.milliseconds(time))"])
            loadedPanes.append(LoadTimes.Pane(app: entry.kind, microAppLoadTime: time))
        }
        guard !canvasLoaded, !isLoading, let processStarted else { return }
        canvasLoaded = true
        let times = LoadTimes(layout: manager.layout.name, canvasLoadTime: max(.zero, processStarted.duration(to: instant)),
                              panes: loadedPanes)
        logger.info("canvas loaded", metadata: ["layout": "\(times.layout)", "canvasLoadTime": "\(Self.milliseconds(times.canvasLoadTime))"])
        emit(.write(.loadTimes(times)))
    }

    private static func milliseconds(_ time: Duration) -> String {
        let tenths = (time.fractionalMilliseconds * 10).rounded()
        return "\(tenths / 10) ms"
    }
}
