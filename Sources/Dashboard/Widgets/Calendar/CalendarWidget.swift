import AppModel
import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI
import ServerAPI

/// A month calendar: today marked, a selected day moved with the arrows, months with PgUp/PgDn.
/// Every change of the selected day is published as `calendar.date.selected`.
///
/// Days with events (from its backend) or open todos due (from the todo app's events) carry a
/// `•`; a tall enough pane lists the selected day's agenda; `n` adds an event on that day.
public struct CalendarWidget: Widget {
    public nonisolated static let descriptor = WidgetDescriptor(
        kind: .calendar, name: "Calendar", summary: "Month view with events; selecting a day filters other apps", version: "1.1.0",
        commands: commands
    ) { config, state in
        CalendarWidget(config: config, state: state)
    }

    public nonisolated static let commands = [
        Command(.calendarNewEvent, "New event on the selected day (Title, 09:30 Title, 09:30-11:00 Title; then every week, remind 15m)",
                in: .widget(.calendar),
                keys: [.char("n")]),
        Command(.calendarToday, "Go to today", in: .widget(.calendar), keys: [.char("t")]),
        Command(.calendarView, "Switch the view: month, agenda (the days ahead), week", in: .widget(.calendar), keys: [.char("v")]),
    ]

    private(set) var selected: CalendarDate?
    private var weekStart: MonthGrid.Weekday
    private(set) var view: CalendarView
    private var context: WidgetContext?
    private(set) var agenda = CalendarAgenda()
    private(set) var input: InlineInput?
    private(set) var status: SyncStatus?
    /// The months whose events were last asked for: the shown days'.
    private var loadedMonths: Set<CalendarDate> = []
    public private(set) var isWaitingForContent = true

    public init(config: WidgetValues = [:], state: WidgetValues = [:]) {
        weekStart = config["weekStart"].flatMap(MonthGrid.Weekday.init(rawValue:)) ?? .monday
        view = config["view"].flatMap(CalendarView.init(rawValue:)) ?? .month
        selected = state["selected"].flatMap(CalendarDate.init(iso:))
    }

    public var title: String { "Calendar" + (status?.titleSuffix(clock: clock) ?? "") }
    public var subscriptions: [EventPattern] { [.prefix("calendar."), .prefix("todo."), .exact(SyncStatusChanged.name)] }
    public var capturesText: Bool { input != nil }
    public var config: WidgetValues { ["weekStart": weekStart.rawValue, "view": view.rawValue] }
    public var state: WidgetValues { selected.map { ["selected": $0.iso] } ?? [:] }

    public var settings: [WidgetSetting] {
        [WidgetSetting(key: "weekStart", label: "Week starts on", value: weekStart.rawValue,
                       choices: MonthGrid.Weekday.allCases.map(\.rawValue)),
         WidgetSetting(key: "view", label: "View", value: view.rawValue, choices: CalendarView.allCases.map(\.rawValue))]
    }

    private var clock: CanvasClock { context?.clock ?? CanvasClock() }
    /// Read from the clock each time, so the mark moves at midnight.
    var today: CalendarDate? { context?.clock.today }

    public mutating func mount(_ context: WidgetContext) throws -> WidgetEffects {
        self.context = context
        if selected == nil { selected = today }
        var effects = loadMonthIfNeeded()
        // Days with open todos are marked even on a canvas without a todo list.
        effects.request(AppCommand.todo(.load))
        return effects
    }

    public mutating func cycleSetting(_ key: String) throws {
        switch key {
        case "weekStart": weekStart = weekStart == .monday ? .sunday : .monday
        case "view": view = view.next
        default: break
        }
    }

    public mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects {
        let clock = clock
        switch event.payload {
        case let loaded as CalendarEventsLoaded:
            isWaitingForContent = false
            agenda.replaceEvents(in: loaded.range, with: loaded.events, clock: clock)
        case let created as CalendarEventCreated: agenda.upsert(created.event)
        case let updated as CalendarEventUpdated: agenda.upsert(updated.event)
        case let deleted as CalendarEventDeleted: agenda.removeEvent(deleted.id)
        case let synced as CalendarEventSynced: agenda.replaceEvent(synced.localID, with: synced.event)
        case let loaded as TodoItemsLoaded: agenda.replaceTodos(loaded.items)
        case let created as TodoItemCreated: agenda.noteTodo(created.item)
        case let updated as TodoItemUpdated: agenda.noteTodo(updated.item)
        case let completed as TodoItemCompleted: agenda.noteTodo(completed.item)
        case let deleted as TodoItemDeleted: agenda.removeTodo(deleted.id)
        case let synced as TodoItemSynced: agenda.replaceTodo(synced.localID, with: synced.item)
        case let changed as SyncStatusChanged where changed.app == .calendar: status = changed.status
        case let due as CalendarRemindersDue where !due.missed: agenda.noteReminded(due.reminders)
        default: break
        }
        return .none
    }

    public mutating func handle(_ input: InputEvent) throws -> InputResult {
        if self.input != nil, case .key(let key) = input { return handleInput(key) }
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
            case .home: next = today ?? current
            default: return .ignored
            }
        case .mouse(let mouse):
            switch mouse.action {
            case .wheelUp: next = current.adding(months: -1)
            case .wheelDown: next = current.adding(months: 1)
            case .press:
                guard view == .month, let day = lastLayout?.day(at: mouse.position, month: current, weekStart: weekStart) else { return .ignored }
                next = day
            case .drag, .release: return .ignored
            }
        default:
            return .ignored
        }
        return .handled(select(next))
    }

    public mutating func perform(_ command: CommandID) throws -> WidgetEffects {
        guard input == nil, let current = selected else { return .none }
        switch command {
        case .calendarNewEvent: input = InlineInput(prompt: "New on \(DayLabel.short(current)): ")
        case .calendarToday: return select(today ?? current)
        case .calendarView:
            view = view.next
            return loadMonthIfNeeded()
        default: break
        }
        return .none
    }

    private mutating func handleInput(_ key: Key) -> InputResult {
        guard var entry = input, let day = selected else { return .ignored }
        switch key.code {
        case .escape:
            input = nil
        case .enter:
            do {
                let event = try EventEntry.parse(entry.field.text, on: day, clock: clock)
                input = nil
                return .handled(WidgetEffects(requests: [AppCommand.calendar(.create(event))]))
            } catch {
                entry.problem = error.description
                input = entry
            }
        default:
            if key == .ctrl("e"), entry.field.text.isEmpty { return .ignored }
            guard entry.field.edit(key) else { return key.modifiers.isEmpty ? .handled : .ignored }
            entry.problem = nil
            input = entry
        }
        return .handled
    }

    /// Selects a day: publishes it, and asks for its month's events if they were not asked for.
    private mutating func select(_ date: CalendarDate) -> WidgetEffects {
        guard date != selected else { return .none }
        selected = date
        var effects = WidgetEffects(events: [DateSelected(date: date)])
        effects.append(loadMonthIfNeeded())
        return effects
    }

    /// Asks for the events of the months the view shows days of, when they changed.
    private mutating func loadMonthIfNeeded() -> WidgetEffects {
        guard let selected else { return .none }
        let days = view.shownDays(around: selected, weekStart: weekStart)
        let months: Set<CalendarDate> = [selected.firstOfMonth, days.lowerBound.firstOfMonth, days.upperBound.firstOfMonth]
        let asked = months.subtracting(loadedMonths).sorted()
        loadedMonths = months
        return WidgetEffects(requests: asked.map { month in
            AppCommand.calendar(.load(DayRange(first: month.iso, last: month.adding(days: month.daysInMonth - 1).iso)))
        })
    }

    /// The drawing geometry for the last size the canvas gave, for mouse hit-testing.
    private var lastLayout: CalendarLayout?

    public mutating func resize(to size: Size) {
        lastLayout = CalendarLayout(size: size)
    }

    public func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        guard let selected else { return }
        let clock = clock
        let bottom = buffer.size.height - (input == nil ? 0 : 2)
        let list = DayListDrawing(agenda: agenda, clock: clock, selected: selected, today: today, focused: focused)
        let below = Rect(x: 1, y: 1, width: max(0, buffer.size.width - 2), height: max(0, bottom - 1))
        switch view {
        case .month:
            let free = CalendarLayout(size: buffer.size).draw(
                MonthGrid(month: selected, weekStart: weekStart), selected: selected, today: today,
                marked: agenda.markedDays(in: selected, clock: clock), into: &buffer, theme: theme, focused: focused
            )
            drawAgenda(for: selected, from: free, to: bottom, into: &buffer, theme: theme)
        case .agenda:
            buffer.writeCentered("From \(DayLabel.short(selected))", row: 0, in: buffer.bounds, style: theme[.heading])
            list.draw(from: selected, days: CalendarView.agendaDays, keepingEmpty: false, in: below, into: &buffer, theme: theme)
        case .week:
            let first = CalendarView.weekStart(of: selected, weekStart: weekStart)
            buffer.writeCentered("Week of \(DayLabel.short(first))", row: 0, in: buffer.bounds, style: theme[.heading])
            WeekDrawing(days: list, weekStart: weekStart).draw(in: below, into: &buffer, theme: theme)
        }
        input?.draw(into: &buffer, row: buffer.size.height - 1, theme: theme)
    }

    /// The selected day's events and due todos, in the rows left below the month (none when
    /// fewer than two are left).
    private func drawAgenda(for day: CalendarDate, from top: Int, to bottom: Int, into buffer: inout Buffer, theme: Theme) {
        guard bottom - top >= 2 else { return }
        let lines = agenda.lines(for: day, clock: clock)
        let area = Rect(x: 1, y: top, width: max(0, buffer.size.width - 2), height: bottom - top)
        if lines.isEmpty {
            buffer.write("Nothing planned. n adds an event.", at: area.origin, style: theme[.muted], clip: area)
            return
        }
        let shown = lines.count > area.height ? area.height - 1 : lines.count
        for (row, line) in lines.prefix(shown).enumerated() {
            let x = buffer.write(line.label + " ", at: Point(x: area.minX, y: area.minY + row), style: DayListDrawing.style(of: line, theme, label: true),
                                 clip: area)
            buffer.write(DisplayWidth.clipped(line.title, to: area.maxX - x), at: Point(x: x, y: area.minY + row),
                         style: DayListDrawing.style(of: line, theme, label: false), clip: area)
        }
        if shown < lines.count {
            buffer.write("+\(lines.count - shown) more", at: Point(x: area.minX, y: area.minY + shown), style: theme[.muted], clip: area)
        }
    }
}

extension CommandID {
    static let calendarNewEvent: CommandID = "calendar.event.new"
    static let calendarToday: CommandID = "calendar.today"
    static let calendarView: CommandID = "calendar.view.next"
}
