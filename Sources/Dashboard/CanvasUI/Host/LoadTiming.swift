import CanvasCore

/// How long the canvas and each pane took to show their content (`LoadTimes`), as a value: the
/// panes' times as each first shows it, and the canvas's once every pane of the start has.
struct LoadTiming {
    /// When the process started; nil measures the panes alone.
    var processStarted: ContinuousClock.Instant?
    private var panes: [LoadTimes.Pane] = []
    private var canvasLoaded = false

    /// A pane of `app`, mounted at `mounted`, shows its content at `instant`: its time.
    mutating func paneShown(_ app: AppKind, mounted: ContinuousClock.Instant, at instant: ContinuousClock.Instant) -> LoadTimes.Pane {
        let pane = LoadTimes.Pane(app: app, microAppLoadTime: max(.zero, mounted.duration(to: instant)))
        panes.append(pane)
        return pane
    }

    /// Every pane shows its content at `instant`: the start's times, the first time only.
    mutating func everyPaneShown(layout: String, at instant: ContinuousClock.Instant) -> LoadTimes? {
        guard !canvasLoaded, let processStarted else { return nil }
        canvasLoaded = true
        return LoadTimes(layout: layout, canvasLoadTime: max(.zero, processStarted.duration(to: instant)), panes: panes)
    }
}
