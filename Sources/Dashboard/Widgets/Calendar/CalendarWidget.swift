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
/// `•`; a tall enough pane lists the selected day's agenda; `n` adds an event on that day. One of
/// the day's events is chosen (`j`/`k`): `e` edits it, `<`/`>` move it a day, `d` deletes it; of
/// a repeating event the pane asks which instances, as calendar programs do.
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
        Command(.calendarNextEvent, "Choose the selected day's next event", in: .widget(.calendar), keys: [.char("j")]),
        Command(.calendarPreviousEvent, "Choose the selected day's previous event", in: .widget(.calendar), keys: [.char("k")]),
        Command(.calendarEditEvent, "Edit the chosen event's times and title (of a repeating one: this, the following or all)",
                in: .widget(.calendar), keys: [.char("e")]),
        Command(.calendarEventLater, "Move the chosen event a day later", in: .widget(.calendar), keys: [.char(">")]),
        Command(.calendarEventEarlier, "Move the chosen event a day earlier", in: .widget(.calendar), keys: [.char("<")]),
        Command(.calendarDeleteEvent, "Delete the chosen event (asks first)", in: .widget(.calendar), keys: [.char("d")]),
    ]

    enum Mode: Equatable {
        case browse
        /// Typing a new event on the selected day, or new times and a title for `editing`.
        case input(InlineInput, editing: CalendarEvent?)
        /// A change of an instance of a repeating event, waiting to hear of which instances.
        case askInstances(EventChange)
        case confirmDelete(CalendarEvent)
    }

    private(set) var selected: CalendarDate?
    private var weekStart: MonthGrid.Weekday
    private(set) var view: CalendarView
    private var context: WidgetContext?
    private(set) var agenda = CalendarAgenda()
    private(set) var mode = Mode.browse
    /// The selected day's event the event keys act on; nil, or one no longer there: its first.
    private(set) var chosen: CalendarEvent.Key?
    /// Why the last event key did nothing, shown until the next key.
    private(set) var notice: String?
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
    public var capturesText: Bool { mode != .browse }
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
        case let deleted as CalendarEventDeleted: agenda.removeEvent(deleted.id, instances: deleted.instances)
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
        notice = nil
        switch (mode, input) {
        case (.browse, _): break
        case (.input(var entry, let editing), .key(let key)): return handleInput(key, entry: &entry, editing: editing)
        case (.askInstances(let change), .key(let key)): return answer(key, to: change)
        case (.confirmDelete(let event), .key(let key)):
            mode = .browse
            guard key == .char("y") || key == .char("Y") else { return .handled }
            return .handled(WidgetEffects(requests: [EventChange(event: event, kind: .delete).command(nil)]))
        default: return .ignored
        }
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
        guard mode == .browse, let current = selected else { return .none }
        notice = nil
        switch command {
        case .calendarNewEvent: mode = .input(InlineInput(prompt: "New on \(DayLabel.short(current)): "), editing: nil)
        case .calendarToday: return select(today ?? current)
        case .calendarView:
            view = view.next
            return loadMonthIfNeeded()
        case .calendarNextEvent: choose(step: 1, on: current)
        case .calendarPreviousEvent: choose(step: -1, on: current)
        case .calendarEditEvent:
            guard let event = changeableEvent(on: current) else { break }
            mode = .input(InlineInput(prompt: "Edit: ", text: EventEntry.text(of: event, on: current, clock: clock)), editing: event)
        case .calendarEventLater, .calendarEventEarlier:
            guard let event = changeableEvent(on: current) else { break }
            return ask(EventChange.moving(event, days: command == .calendarEventLater ? 1 : -1, clock: clock))
        case .calendarDeleteEvent:
            guard let event = changeableEvent(on: current) else { break }
            mode = event.instanceStart == nil ? .confirmDelete(event) : .askInstances(EventChange(event: event, kind: .delete))
        default: break
        }
        return .none
    }

    private mutating func handleInput(_ key: Key, entry: inout InlineInput, editing: CalendarEvent?) -> InputResult {
        guard let day = selected else { return .ignored }
        switch key.code {
        case .escape:
            mode = .browse
        case .enter:
            do {
                guard let editing else {
                    let event = try EventEntry.parse(entry.field.text, on: day, clock: clock)
                    mode = .browse
                    return .handled(WidgetEffects(requests: [AppCommand.calendar(.create(event))]))
                }
                let before = EventEntry.text(of: editing, on: day, clock: clock)
                let change = try EventChange.editing(editing, from: before, to: entry.field.text, on: day, clock: clock)
                mode = .browse
                guard let change else { return .handled }
                return .handled(ask(change))
            } catch {
                entry.problem = error.description
                mode = .input(entry, editing: editing)
            }
        default:
            if key == .ctrl("e"), entry.field.text.isEmpty { return .ignored }
            guard entry.field.edit(key) else { return key.modifiers.isEmpty ? .handled : .ignored }
            entry.problem = nil
            mode = .input(entry, editing: editing)
        }
        return .handled
    }

    /// The selected day's event the event keys act on: the one chosen, else the day's first.
    func chosenEvent(on day: CalendarDate) -> CalendarEvent? {
        let events = agenda.events(on: day, clock: clock)
        return events.first { $0.key == chosen } ?? events.first
    }

    private mutating func choose(step: Int, on day: CalendarDate) {
        let events = agenda.events(on: day, clock: clock)
        guard !events.isEmpty else {
            notice = "Nothing on \(DayLabel.short(day)) to choose: n adds an event."
            return
        }
        let index = events.firstIndex { $0.key == chosen } ?? 0
        chosen = events[min(max(index + step, 0), events.count - 1)].key
    }

    /// The chosen event, when there is one this dashboard may change; else nil, and why.
    private mutating func changeableEvent(on day: CalendarDate) -> CalendarEvent? {
        guard let event = chosenEvent(on: day) else {
            notice = "Nothing on \(DayLabel.short(day)) to change: n adds an event."
            return nil
        }
        guard event.readOnly != true else {
            notice = "\u{201C}\(event.title)\u{201D} is in a subscription: it changes where it is published."
            return nil
        }
        chosen = event.key
        return event
    }

    /// Asks which instances a change of a repeating event is of, or makes it at once.
    private mutating func ask(_ change: EventChange) -> WidgetEffects {
        guard change.needsInstances else { return make(change, scope: nil) }
        mode = .askInstances(change)
        return .none
    }

    /// The answer to "which instances": `o` this one, `f` this and the following, `a` all; Esc
    /// changes nothing.
    private mutating func answer(_ key: Key, to change: EventChange) -> InputResult {
        let scope: CalendarEditScope
        switch key {
        case .char("o"), .char("O"): scope = .this
        case .char("f"), .char("F"): scope = .following
        case .char("a"), .char("A"): scope = .all
        case Key(.escape):
            mode = .browse
            return .handled
        default: return .handled
        }
        mode = .browse
        return .handled(make(change, scope: scope))
    }

    /// The change's request; after a move the selection follows the event to its new day.
    private mutating func make(_ change: EventChange, scope: CalendarEditScope?) -> WidgetEffects {
        var effects = WidgetEffects(requests: [change.command(scope)])
        if change.days != 0, let day = selected {
            effects.append(select(day.adding(days: change.days)))
            chosen = change.event.key
        }
        return effects
    }

    /// Selects a day: publishes it, and asks for its month's events if they were not asked for.
    private mutating func select(_ date: CalendarDate) -> WidgetEffects {
        guard date != selected else { return .none }
        selected = date
        chosen = nil
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
        let footer = CalendarFooter(mode: mode, notice: notice)
        let bottom = buffer.size.height - footer.rows(width: buffer.size.width)
        var list = DayListDrawing(agenda: agenda, clock: clock, selected: selected, today: today, focused: focused)
        list.chosen = chosenEvent(on: selected)?.key
        let below = Rect(x: 1, y: 1, width: max(0, buffer.size.width - 2), height: max(0, bottom - 1))
        switch view {
        case .month:
            let free = CalendarLayout(size: buffer.size).draw(
                MonthGrid(month: selected, weekStart: weekStart), selected: selected, today: today,
                marked: agenda.markedDays(in: selected, clock: clock), into: &buffer, theme: theme, focused: focused
            )
            drawAgenda(list, from: free, to: bottom, into: &buffer, theme: theme)
        case .agenda:
            buffer.writeCentered("From \(DayLabel.short(selected))", row: 0, in: buffer.bounds, style: theme[.heading])
            list.draw(from: selected, days: CalendarView.agendaDays, keepingEmpty: false, in: below, into: &buffer, theme: theme)
        case .week:
            let first = CalendarView.weekStart(of: selected, weekStart: weekStart)
            buffer.writeCentered("Week of \(DayLabel.short(first))", row: 0, in: buffer.bounds, style: theme[.heading])
            WeekDrawing(days: list, weekStart: weekStart).draw(in: below, into: &buffer, theme: theme)
        }
        footer.draw(into: &buffer, theme: theme)
    }

    /// The selected day's events and due todos, in the rows left below the month (none when
    /// fewer than two are left).
    private func drawAgenda(_ list: DayListDrawing, from top: Int, to bottom: Int, into buffer: inout Buffer, theme: Theme) {
        guard bottom - top >= 2 else { return }
        let day = list.selected
        let lines = agenda.lines(for: day, clock: clock)
        let area = Rect(x: 1, y: top, width: max(0, buffer.size.width - 2), height: bottom - top)
        if lines.isEmpty {
            buffer.write("Nothing planned. n adds an event.", at: area.origin, style: theme[.muted], clip: area)
            return
        }
        let shown = lines.count > area.height ? area.height - 1 : lines.count
        for (row, line) in lines.prefix(shown).enumerated() {
            let x = buffer.write(line.label + " ", at: Point(x: area.minX, y: area.minY + row), style: list.style(of: line, on: day, theme, label: true),
                                 clip: area)
            buffer.write(DisplayWidth.clipped(line.title, to: area.maxX - x), at: Point(x: x, y: area.minY + row),
                         style: list.style(of: line, on: day, theme, label: false), clip: area)
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
    static let calendarNextEvent: CommandID = "calendar.event.next"
    static let calendarPreviousEvent: CommandID = "calendar.event.previous"
    static let calendarEditEvent: CommandID = "calendar.event.edit"
    static let calendarEventLater: CommandID = "calendar.event.later"
    static let calendarEventEarlier: CommandID = "calendar.event.earlier"
    static let calendarDeleteEvent: CommandID = "calendar.event.delete"
}
