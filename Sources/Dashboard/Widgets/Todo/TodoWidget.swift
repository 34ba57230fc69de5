import AppModel
import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI
import ServerAPI

/// The todo micro-app: the user's items with done state and due dates, filtered to the day the
/// calendar selects (`calendar.date.selected`; `c` clears it).
///
/// It changes nothing itself: its keys return commands for the sync engine (`AppCommand`
/// requests), whose `todo.*` events (from the cache at once, then from the server) are what it shows.
public struct TodoWidget: Widget {
    public nonisolated static let descriptor = WidgetDescriptor(
        kind: .todo, name: "Todo", summary: "Your todo list; follows the calendar's day", version: "1.0.0", commands: commands
    ) { config, state in
        TodoWidget(config: config, state: state)
    }

    public nonisolated static let commands = [
        Command(.todoNew, "New todo (@2026-11-24, @today, @tomorrow set the date)", in: .widget(.todo), keys: [.char("n")]),
        Command(.todoToggle, "Mark the todo done / not done", in: .widget(.todo), keys: [.char(" ")]),
        Command(.todoEdit, "Edit the todo (@none clears the date)", in: .widget(.todo), keys: [.char("e")]),
        Command(.todoDelete, "Delete the todo (asks first)", in: .widget(.todo), keys: [.char("d")]),
        Command(.todoClearFilter, "Show every day's todos (clear the calendar's filter)", in: .widget(.todo), keys: [.char("c")]),
        Command(.todoRaise, "Raise the todo's priority (!!! high, !! medium, ! low)", in: .widget(.todo), keys: [.char("+")]),
        Command(.todoLower, "Lower the todo's priority (below low: none)", in: .widget(.todo), keys: [.char("-")]),
    ]

    enum Mode: Equatable {
        case list
        /// Typing a new item, or a new text for `editing`.
        case input(InlineInput, editing: Int64?)
        case confirmDelete(TodoItem)
    }

    private(set) var list: TodoList
    private(set) var mode = Mode.list
    private(set) var status: SyncStatus?
    private var top = 0
    private var viewport = Size.zero
    private var clock = CanvasClock()
    /// The item selected when the layout was saved, until the items arrive.
    private var restoreSelection: Int64?
    public private(set) var isWaitingForContent = true

    public init(config: WidgetValues = [:], state: WidgetValues = [:]) {
        list = TodoList(filter: state["filter"].flatMap(CalendarDate.init(iso:)))
        restoreSelection = state["selected"].flatMap { Int64($0) }
    }

    public var title: String {
        var title = "Todo"
        if let day = list.filter { title += " · " + DayLabel.short(day) }
        let open = list.openCount
        if open > 0 { title += " · \(open) open" }
        return title + (status?.titleSuffix(clock: clock) ?? "")
    }

    public var subscriptions: [EventPattern] {
        [.prefix("todo."), .exact(DateSelected.name), .exact(SyncStatusChanged.name)]
    }

    public var capturesText: Bool { mode != .list }

    public var state: WidgetValues {
        var state: WidgetValues = [:]
        if let filter = list.filter { state["filter"] = filter.iso }
        if let id = list.selectedItem?.id ?? restoreSelection { state["selected"] = String(id) }
        return state
    }

    public mutating func mount(_ context: WidgetContext) throws -> WidgetEffects {
        clock = context.clock
        return WidgetEffects(requests: [AppCommand.todo(.load)])
    }

    public mutating func resize(to size: Size) {
        viewport = size
        scrollToSelection()
    }

    public mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects {
        switch event.payload {
        case let loaded as TodoItemsLoaded:
            isWaitingForContent = false
            list.replaceAll(loaded.items)
            if let id = restoreSelection, loaded.items.contains(where: { $0.id == id }) {
                list.select(id: id)
                restoreSelection = nil
            }
        case let created as TodoItemCreated:
            list.upsert(created.item)
            if LocalID.isLocal(created.item.id) { list.select(id: created.item.id) }
        case let updated as TodoItemUpdated: list.upsert(updated.item)
        case let completed as TodoItemCompleted: list.upsert(completed.item)
        case let deleted as TodoItemDeleted: list.remove(deleted.id)
        case let synced as TodoItemSynced: list.replace(synced.localID, with: synced.item)
        case let selected as DateSelected: list.filter = selected.date
        case let changed as SyncStatusChanged where changed.app == .todo: status = changed.status
        default: return .none
        }
        scrollToSelection()
        return .none
    }

    public mutating func handle(_ input: InputEvent) throws -> InputResult {
        switch (mode, input) {
        case (.list, .key(let key)): return InputResult(handleList(key))
        case (.input(var entry, let editing), .key(let key)):
            return handleInput(key, entry: &entry, editing: editing)
        case (.confirmDelete(let item), .key(let key)):
            mode = .list
            guard key == .char("y") || key == .char("Y") else { return .handled }
            return .handled(WidgetEffects(requests: [AppCommand.todo(.delete(id: item.id))]))
        case (.list, .mouse(let mouse)):
            switch mouse.action {
            case .wheelUp: move(by: -3)
            case .wheelDown: move(by: 3)
            case .press: list.select(top + mouse.position.y)
            case .drag, .release: return .ignored
            }
            return .handled
        default:
            return .ignored
        }
    }

    private mutating func handleList(_ key: Key) -> InputDisposition {
        guard key.modifiers.isEmpty else { return .ignored }
        let page = max(1, viewport.height - 1)
        switch key.code {
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .pageUp: move(by: -page)
        case .pageDown: move(by: page)
        case .home: move(by: -list.visible.count)
        case .end: move(by: list.visible.count)
        default:
            return .ignored
        }
        return .handled
    }

    public mutating func perform(_ command: CommandID) throws -> WidgetEffects {
        guard mode == .list else { return .none }
        switch command {
        case .todoNew:
            mode = .input(InlineInput(prompt: "New: "), editing: nil)
        case .todoToggle:
            guard let item = list.selectedItem else { return .none }
            return WidgetEffects(requests: [AppCommand.todo(.update(id: item.id, TodoPatch(done: !item.done)))])
        case .todoEdit:
            guard let item = list.selectedItem else { return .none }
            mode = .input(InlineInput(prompt: "Edit: ", text: TodoEntry.text(of: item)), editing: item.id)
        case .todoDelete:
            guard let item = list.selectedItem else { return .none }
            mode = .confirmDelete(item)
        case .todoClearFilter:
            list.filter = nil
            scrollToSelection()
        case .todoRaise, .todoLower:
            guard let item = list.selectedItem else { return .none }
            let priority = Self.priority(item.priority, raised: command == .todoRaise)
            guard priority != (item.priority ?? 0) else { return .none }
            return WidgetEffects(requests: [AppCommand.todo(.update(id: item.id, TodoPatch(priority: priority)))])
        default: break
        }
        return .none
    }

    private mutating func handleInput(_ key: Key, entry: inout InlineInput, editing: Int64?) -> InputResult {
        switch key.code {
        case .escape:
            mode = .list
            return .handled
        case .enter:
            let today = clock.today
            do {
                let parsed = try TodoEntry.parse(entry.field.text, today: today)
                mode = .list
                if let id = editing {
                    let due: String?? = parsed.due.map { $0?.iso }
                    return .handled(WidgetEffects(requests: [AppCommand.todo(.update(id: id, TodoPatch(title: parsed.title, due: due)))]))
                }
                let due = parsed.due ?? list.filter
                return .handled(WidgetEffects(requests: [AppCommand.todo(.create(NewTodo(title: parsed.title, due: due?.iso)))]))
            } catch {
                entry.problem = error.description
                mode = .input(entry, editing: editing)
                return .handled
            }
        default:
            // Ctrl-E on an empty line is the canvas's (arrange mode); every other key is the field's.
            if key == .ctrl("e"), entry.field.text.isEmpty { return .ignored }
            guard entry.field.edit(key) else { return key.modifiers.isEmpty ? .handled : .ignored }
            entry.problem = nil
            mode = .input(entry, editing: editing)
            return .handled
        }
    }

    private mutating func move(by rows: Int) {
        list.select(list.selected + rows)
        scrollToSelection()
    }

    /// Scrolls so the selection is on screen.
    private mutating func scrollToSelection() {
        let rows = listRows
        if list.selected < top { top = list.selected }
        if list.selected >= top + rows { top = list.selected - rows + 1 }
        top = max(0, min(top, list.visible.count - rows))
    }

    /// Rows the list may use: all but those an open input or question takes.
    private var listRows: Int {
        max(1, viewport.height - (mode == .list ? 0 : 2))
    }

    public func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        let rows = max(1, buffer.size.height - (mode == .list ? 0 : 2))
        if list.visible.isEmpty {
            // The day is in the title already: the hint stays the same from day to day, so moving
            // through the calendar redraws the title's day only.
            let empty = list.filter == nil ? "No todos yet. n adds one." : "Nothing due that day. c shows everything."
            buffer.write(empty, at: .zero, style: theme[.muted])
        }
        let today = clock.today
        let end = min(list.visible.count, top + rows)
        for (row, index) in (top..<max(top, end)).enumerated() {
            guard let item = list.items[list.visible[index]] else { continue }
            drawItem(item, row: row, selected: index == list.selected, focused: focused, today: today, into: &buffer, theme: theme)
        }
        switch mode {
        case .list: break
        case .input(let entry, _):
            entry.draw(into: &buffer, row: buffer.size.height - 1, theme: theme)
        case .confirmDelete(let item):
            buffer.write("Delete \"\(item.title)\"? y/n", at: Point(x: 0, y: buffer.size.height - 1), style: theme[.warning])
        }
    }

    private func drawItem(_ item: TodoItem, row: Int, selected: Bool, focused: Bool, today: CalendarDate,
                          into buffer: inout Buffer, theme: Theme) {
        let width = buffer.size.width
        let base = selected ? theme[focused ? .selection : .selectionUnfocused] : theme[item.done ? .muted : .text]
        if selected { buffer.fill(Rect(x: 0, y: row, width: width, height: 1), with: Cell(" ", style: base)) }
        let due = item.due
        let dueText = due.map { " " + DayLabel.short($0) } ?? ""
        let dueWidth = DisplayWidth.of(dueText)
        let titleClip = Rect(x: 0, y: row, width: max(0, width - dueWidth), height: 1)
        var x = buffer.write(item.done ? "[x] " : "[ ] ", at: Point(x: 0, y: row), style: base, clip: titleClip)
        if let marks = item.priority.map(Self.marks) {
            x = buffer.write(marks + " ", at: Point(x: x, y: row), style: selected || item.done ? base : theme[.warning], clip: titleClip)
        }
        let pending = LocalID.isLocal(item.id) ? 2 : 0
        x = buffer.write(DisplayWidth.clipped(item.title, to: max(0, titleClip.maxX - x - pending)), at: Point(x: x, y: row), style: base,
                         clip: titleClip)
        if LocalID.isLocal(item.id) {
            buffer.write(" …", at: Point(x: x, y: row), style: selected ? base : theme[.muted], clip: titleClip)
        }
        if let due {
            let overdue = !item.done && due < today
            let style = selected ? base : overdue ? theme[.warning] : theme[.muted]
            buffer.write(dueText, at: Point(x: width - dueWidth, y: row), style: style)
        }
    }
}

extension TodoWidget {
    /// How a priority shows, as todoman and most task lists write it: `!!!` high (1–4), `!!`
    /// medium (5), `!` low (6–9).
    static func marks(_ priority: Int) -> String {
        priority <= 4 ? "!!!" : priority == 5 ? "!!" : "!"
    }

    /// One step up (towards 1; from none to low, 9) or down (from 9 to none, 0), in the steps the
    /// marks show: 9, 5, 1.
    static func priority(_ current: Int?, raised: Bool) -> Int {
        switch (current, raised) {
        case (nil, true): 9
        case (let value?, true): value > 5 ? 5 : 1
        case (nil, false): 0
        case (let value?, false): value < 5 ? 5 : value < 9 ? 9 : 0
        }
    }
}

extension CommandID {
    static let todoRaise: CommandID = "todo.item.raise"
    static let todoLower: CommandID = "todo.item.lower"
    static let todoNew: CommandID = "todo.item.new"
    static let todoToggle: CommandID = "todo.item.toggle"
    static let todoEdit: CommandID = "todo.item.edit"
    static let todoDelete: CommandID = "todo.item.delete"
    static let todoClearFilter: CommandID = "todo.filter.clear"
}
