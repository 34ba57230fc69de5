import CanvasCore
import CanvasStyle
import CanvasUI

/// A live, scrollable view of the canvas event bus.
///
/// It follows the newest event until the user scrolls up; repeated events collapse into one
/// line with a count, so a held arrow key does not flood the log.
public struct EventLogWidget: Widget {
    public nonisolated static let descriptor = WidgetDescriptor(
        kind: .eventLog, name: "Event Log", summary: "Live view of the canvas event bus", version: "1.0.0"
    ) { config, state in EventLogWidget(config: config, state: state) }

    static let capacity = 500
    static let filters = ["*", "calendar.*", "todo.*", "chat.*", "canvas.*"]

    private(set) var entries: [EventLogEntry] = []
    /// Lines scrolled up from the newest; 0 follows new events.
    private(set) var scrollBack = 0
    private var filter: String
    private var viewport = Size.zero
    private var clock = CanvasClock()

    public init(config: WidgetValues = [:], state: WidgetValues = [:]) {
        filter = config["filter"].flatMap { Self.filters.contains($0) ? $0 : nil } ?? "*"
        scrollBack = max(0, state["scrollBack"].flatMap(Int.init) ?? 0)
    }

    public var title: String { scrollBack > 0 ? "Event Log ↑\(scrollBack)" : "Event Log" }
    public var subscriptions: [EventPattern] { [EventPattern(filter) ?? .all] }
    public var config: WidgetValues { ["filter": filter] }
    public var state: WidgetValues { ["scrollBack": String(scrollBack)] }

    public var settings: [WidgetSetting] {
        [WidgetSetting(key: "filter", label: "Show events", value: filter, choices: Self.filters)]
    }

    public mutating func mount(_ context: WidgetContext) throws -> WidgetEffects {
        clock = context.clock
        let pattern = EventPattern(filter) ?? .all
        for event in context.events.log.events where pattern.matches(event.name) { append(event) }
        scrollBack = min(scrollBack, maxScrollBack)
        return .none
    }

    /// Changing the filter shows matching events from now on (the bus log fills the view on the next start).
    public mutating func cycleSetting(_ key: String) throws {
        guard key == "filter", let setting = settings.first else { return }
        filter = setting.nextValue
    }

    public mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects {
        guard EventPattern(filter)?.matches(event.name) ?? true else { return .none }
        append(event)
        if scrollBack > 0, entries.last?.count == 1 { scrollBack = min(scrollBack + 1, maxScrollBack) }
        return .none
    }

    public mutating func resize(to size: Size) {
        viewport = size
        scrollBack = min(scrollBack, maxScrollBack)
    }

    public mutating func handle(_ input: InputEvent) throws -> InputResult {
        let page = max(1, viewport.height - 1)
        switch input {
        case .key(let key) where key.modifiers.isEmpty:
            switch key.code {
            case .up: scroll(by: 1)
            case .down: scroll(by: -1)
            case .pageUp: scroll(by: page)
            case .pageDown: scroll(by: -page)
            case .home: scrollBack = maxScrollBack
            case .end: scrollBack = 0
            default: return .ignored
            }
        case .mouse(let mouse) where mouse.action == .wheelUp: scroll(by: 3)
        case .mouse(let mouse) where mouse.action == .wheelDown: scroll(by: -3)
        default: return .ignored
        }
        return .handled
    }

    public func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        guard !entries.isEmpty else {
            buffer.write("No events yet.", at: .zero, style: theme[.muted])
            return
        }
        let height = buffer.size.height
        let end = entries.count - scrollBack
        let visible = entries[max(0, end - height)..<end]
        for (row, entry) in visible.enumerated() {
            var x = buffer.write(entry.time + " ", at: Point(x: 0, y: row), style: theme[.muted])
            x = buffer.write(entry.name.rawValue + " ", at: Point(x: x, y: row), style: theme[.accent])
            x = buffer.write(entry.summary, at: Point(x: x, y: row), style: theme[.text])
            let count = entry.count > 1 ? " ×\(entry.count)" : ""
            buffer.write(count, at: Point(x: x, y: row), style: theme[.muted])
            // A line wider than the pane ends with a mark that it goes on.
            let line = entry.time + " " + entry.name.rawValue + " " + entry.summary + count
            if DisplayWidth.of(line) > buffer.size.width, buffer.size.width > 0 {
                buffer.write("…", at: Point(x: buffer.size.width - 1, y: row), style: theme[.muted])
            }
        }
    }

    private var maxScrollBack: Int { max(0, entries.count - max(1, viewport.height)) }

    private mutating func scroll(by lines: Int) {
        scrollBack = min(max(0, scrollBack + lines), maxScrollBack)
    }

    private mutating func append(_ event: CanvasEvent) {
        let time = clock.timeOfDay(event.time)
        if let last = entries.last, last.continues(with: event) {
            entries[entries.count - 1].time = time
            entries[entries.count - 1].summary = event.summary
            entries[entries.count - 1].count += 1
            return
        }
        entries.append(EventLogEntry(time: time, name: event.name, source: event.source, summary: event.summary, count: 1))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }
}
