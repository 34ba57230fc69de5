import CanvasCore
import CanvasUI

/// A month calendar: today marked, a selected day moved with the arrows, months with PgUp/PgDn.
/// Every change of the selected day is published as `calendar.date.selected`.
public struct CalendarWidget: Widget {
    public nonisolated static let descriptor = WidgetDescriptor(
        kind: .calendar, name: "Calendar", summary: "Month view; selecting a day filters other apps", version: "1.0.0"
    ) { config, state in CalendarWidget(config: config, state: state) }

    private(set) var selected: CalendarDate?
    private var weekStart: MonthGrid.Weekday
    private var context: WidgetContext?

    public init(config: WidgetValues = [:], state: WidgetValues = [:]) {
        weekStart = config["weekStart"].flatMap(MonthGrid.Weekday.init(rawValue:)) ?? .monday
        selected = state["selected"].flatMap(CalendarDate.init(iso:))
    }

    public var title: String { "Calendar" }
    public var config: WidgetValues { ["weekStart": weekStart.rawValue] }
    public var state: WidgetValues { selected.map { ["selected": $0.iso] } ?? [:] }

    public var settings: [WidgetSetting] {
        [WidgetSetting(key: "weekStart", label: "Week starts on", value: weekStart.rawValue,
                       choices: MonthGrid.Weekday.allCases.map(\.rawValue))]
    }

    /// Read from the clock each time, so the mark moves at midnight.
    var today: CalendarDate? { context?.clock.today }

    public mutating func mount(_ context: WidgetContext) throws {
        self.context = context
        if selected == nil { selected = today }
    }

    public mutating func cycleSetting(_ key: String) throws {
        guard key == "weekStart" else { return }
        weekStart = weekStart == .monday ? .sunday : .monday
    }

    public mutating func handle(_ input: InputEvent) throws -> InputDisposition {
        guard let current = selected else { return .ignored }
        let next: CalendarDate
        switch input {
        case .key(let key) where key.modifiers.isEmpty:
            switch key.code {
            case .left: next = current.adding(days: -1)
            case .right: next = current.adding(days: 1)
            case .up: next = current.adding(days: -7)
            case .down: next = current.adding(days: 7)
            case .pageUp: next = current.adding(months: -1)
            case .pageDown: next = current.adding(months: 1)
            case .home, .char("t"): next = today ?? current
            default: return .ignored
            }
        case .mouse(let mouse):
            switch mouse.action {
            case .wheelUp: next = current.adding(months: -1)
            case .wheelDown: next = current.adding(months: 1)
            case .press:
                guard let day = lastLayout?.day(at: mouse.position, month: current, weekStart: weekStart) else { return .ignored }
                next = day
            }
        default:
            return .ignored
        }
        select(next)
        return .handled
    }

    private mutating func select(_ date: CalendarDate) {
        guard date != selected else { return }
        selected = date
        context?.publish(DateSelected(date: date))
    }

    /// The drawing geometry for the last size the canvas gave, for mouse hit-testing.
    private var lastLayout: CalendarLayout?

    public mutating func resize(to size: Size) {
        lastLayout = CalendarLayout(size: size)
    }

    public func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        guard let selected else { return }
        CalendarLayout(size: buffer.size).draw(
            MonthGrid(month: selected, weekStart: weekStart), selected: selected, today: today,
            into: &buffer, theme: theme, focused: focused
        )
    }
}
