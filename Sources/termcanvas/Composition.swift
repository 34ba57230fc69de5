import CanvasCore
import CanvasUI
import Logging
import Widgets

/// Builds the canvas from its parts; the one place that chooses concrete types.
@MainActor
enum Composition {
    static func makeHost(options: CanvasOptions, size: Size, logger: Logger, noColor: Bool) throws -> CanvasHost {
        let clock = options.fixedToday.map(CanvasClock.fixed) ?? CanvasClock()
        return try CanvasHost(
            layout: DefaultLayout.make(), catalog: .builtIn, bus: EventBus(now: clock.now), clock: clock,
            theme: noColor ? Theme.dark.monochrome : .dark, logger: logger, size: size
        )
    }
}

/// The layout a first start shows.
enum DefaultLayout {
    static func make() -> LayoutData {
        LayoutData(name: "default", panes: [
            Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 5, height: 12)),
            Pane(id: 2, app: .eventLog, frame: Rect(x: 5, y: 0, width: 7, height: 12)),
        ], focused: 1)
    }
}
