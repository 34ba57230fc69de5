import AppModel
import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
import ServerAPI
import Testing
@testable import Widgets

@MainActor
@Suite("Todo widget")
struct TodoWidgetTests {
    static let size = Size(width: 40, height: 8)

    func mounted(_ items: [TodoItem] = [], state: WidgetValues = [:], log: CommandLog) throws -> TodoWidget {
        var widget = TodoWidget(state: state)
        log.record(try widget.mount(context(bus: EventBus(now: Fixed.clock.now))))
        widget.resize(to: Self.size)
        _ = try widget.receive(delivered(TodoItemsLoaded(items: items, origin: .cache)))
        return widget
    }

    func lines(_ widget: TodoWidget) -> [String] {
        render(widget, size: Self.size).lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static let items = [
        TodoItem(id: 1, title: "Buy milk", due: date("2026-11-23")),
        TodoItem(id: 2, title: "Call mum", done: true),
        TodoItem(id: 3, title: "Pay rent", due: date("2026-11-20")),
        TodoItem(id: 4, title: "Read book"),
    ]

    @Test("mounting asks for the items; open first by due date, undated, then done; overdue and due dates shown")
    func listing() throws {
        let log = CommandLog()
        let widget = try mounted(Self.items, log: log)
        #expect(log.commands == [.todo(.load)])
        let shown = lines(widget)
        #expect(shown[0].hasPrefix("[ ] Pay rent") && shown[0].hasSuffix("Fri 20 Nov"))
        #expect(shown[1].hasPrefix("[ ] Buy milk") && shown[1].hasSuffix("Mon 23 Nov"))
        #expect(shown[2] == "[ ] Read book")
        #expect(shown[3] == "[x] Call mum")
        #expect(widget.title == "Todo · 3 open")
        // The selected row is highlighted; an overdue date is a warning, a later one muted.
        let buffer = render(widget, size: Self.size, focused: false)
        #expect(buffer[0, 0].style == Theme.dark[.selectionUnfocused])
        #expect(buffer[Self.size.width - 1, 1].style == Theme.dark[.muted])
        var unselected = try mounted(Self.items, log: log)
        _ = try unselected.handle(.key(.down))
        #expect(render(unselected, size: Self.size)[Self.size.width - 1, 0].style == Theme.dark[.warning])
    }

    /// Issue 55, item 1: titles were cut bare against the due date.
    @Test("a title too long for the row is cut with …, the due date kept")
    func longTitles() throws {
        let widget = try mounted([TodoItem(id: 1, title: "Renew the passport before the trip to Lisbon in spring", due: date("2026-11-23"))],
                                 log: CommandLog())
        #expect(lines(widget)[0] == "[ ] Renew the passport befor… Mon 23 Nov", "\(lines(widget)[0])")
    }

    @Test("a priority shows as !!!, !! or ! and sorts the open items before their due dates; + raises and - lowers the selected one")
    func priorities() throws {
        let log = CommandLog()
        var urgent = TodoItem(id: 5, title: "Tax return", due: date("2026-11-30"))
        urgent.priority = 1
        var low = TodoItem(id: 6, title: "Tidy shed")
        low.priority = 9
        var widget = try mounted(Self.items + [urgent, low], log: log)
        let shown = lines(widget)
        #expect(shown[0].hasPrefix("[ ] !!! Tax return") && shown[1] == "[ ] ! Tidy shed" && shown[2].hasPrefix("[ ] Pay rent"))
        _ = try widget.handle(.key(.down))
        _ = try widget.press(.char("+"), log: log)
        #expect(log.commands.last == .todo(.update(id: 6, TodoPatch(priority: 5))))
        _ = try widget.press(.char("-"), log: log)
        #expect(log.commands.last == .todo(.update(id: 6, TodoPatch(priority: 0))))
        #expect(TodoWidget.priority(nil, raised: true) == 9 && TodoWidget.priority(5, raised: true) == 1)
        #expect(TodoWidget.priority(1, raised: false) == 5 && TodoWidget.priority(nil, raised: false) == 0)
    }

    @Test("the calendar's day filters the list, c clears it, and a new item is due that day")
    func dateFilter() throws {
        let log = CommandLog()
        var widget = try mounted(Self.items, log: log)
        _ = try widget.receive(delivered(DateSelected(date: date("2026-11-23"))))
        #expect(lines(widget)[0].hasPrefix("[ ] Buy milk"))
        #expect(lines(widget)[1].isEmpty)
        #expect(widget.title == "Todo · Mon 23 Nov · 1 open")
        #expect(widget.state["filter"] == "2026-11-23")

        _ = try widget.press(.char("n"), log: log)
        #expect(widget.capturesText)
        for character in "Eggs" { _ = try widget.press(.char(character), log: log) }
        #expect(lines(widget).last == "New: Eggs")
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.last == .todo(.create(NewTodo(title: "Eggs", due: "2026-11-23"))))
        #expect(!widget.capturesText)

        _ = try widget.receive(delivered(DateSelected(date: date("2026-11-24"))))
        #expect(widget.title == "Todo · Tue 24 Nov")
        #expect(lines(widget)[0].hasPrefix("Nothing due that day. c shows"))
        _ = try widget.press(.char("c"), log: log)
        #expect(lines(widget)[3] == "[x] Call mum")
        #expect(widget.state["filter"] == nil)
    }

    @Test("typed dates: @date, @today, @tomorrow, @none; bad input stays in the field with the reason")
    func entries() throws {
        #expect(try TodoEntry.parse("Eggs @2026-12-01", today: Fixed.today) == TodoEntry(title: "Eggs", due: .some(date("2026-12-01"))))
        #expect(try TodoEntry.parse(" Eggs @tomorrow ", today: Fixed.today) == TodoEntry(title: "Eggs", due: .some(date("2026-11-23"))))
        #expect(try TodoEntry.parse("Eggs @none", today: Fixed.today) == TodoEntry(title: "Eggs", due: .some(nil)))
        #expect(try TodoEntry.parse("mail a@b.c now", today: Fixed.today) == TodoEntry(title: "mail a@b.c now", due: nil))
        #expect(throws: TodoEntryProblem.badDate("2026-13-01")) { try TodoEntry.parse("Eggs @2026-13-01", today: Fixed.today) }

        let log = CommandLog()
        var widget = try mounted([], log: log)
        _ = try widget.press(.char("n"), log: log)
        _ = try widget.press(.enter, log: log)
        #expect(lines(widget).contains("A todo needs a title."))
        #expect(log.commands == [.todo(.load)], "nothing is sent")
        _ = try widget.press(.escape, log: log)
        #expect(!widget.capturesText)
    }

    @Test("Space toggles, e edits with the date, d asks before deleting")
    func editing() throws {
        let log = CommandLog()
        var widget = try mounted(Self.items, log: log)
        _ = try widget.press(.down, log: log)  // Buy milk
        _ = try widget.press(.char(" "), log: log)
        #expect(log.commands.last == .todo(.update(id: 1, TodoPatch(done: true))))

        _ = try widget.press(.char("e"), log: log)
        #expect(lines(widget).last == "Edit: Buy milk @2026-11-23")
        for _ in 0..<"@2026-11-23".count { _ = try widget.press(Key(.backspace), log: log) }
        for character in "@none" { _ = try widget.press(.char(character), log: log) }
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.last == .todo(.update(id: 1, TodoPatch(title: "Buy milk", due: .some(nil)))))

        _ = try widget.press(.char("d"), log: log)
        #expect(lines(widget).last == "Delete \"Buy milk\"? y/n")
        _ = try widget.press(.char("n"), log: log)
        #expect(log.commands.last != .todo(.delete(id: 1)))
        _ = try widget.press(.char("d"), log: log)
        _ = try widget.press(.char("y"), log: log)
        #expect(log.commands.last == .todo(.delete(id: 1)))
    }

    @Test("an item made offline shows a pending mark and keeps the selection when the server's id arrives")
    func pendingItems() throws {
        let log = CommandLog()
        var widget = try mounted(Self.items, log: log)
        _ = try widget.receive(delivered(TodoItemCreated(item: TodoItem(id: -1, title: "Offline one"))))
        #expect(lines(widget).contains("[ ] Offline one …"))
        #expect(widget.state["selected"] == "-1")
        _ = try widget.receive(delivered(TodoItemSynced(localID: -1, item: TodoItem(id: 9, title: "Offline one"))))
        #expect(lines(widget).contains("[ ] Offline one"))
        #expect(widget.state["selected"] == "9")
        _ = try widget.receive(delivered(SyncStatusChanged(app: .todo, status: SyncStatus(connection: .offline, pendingWrites: 2))))
        #expect(widget.title == "Todo · 4 open · offline · 2 unsent")
        _ = try widget.receive(delivered(SyncStatusChanged(app: .chat, status: SyncStatus(connection: .failing("x")))))
        #expect(widget.title == "Todo · 4 open · offline · 2 unsent", "another app's status is not ours")
        // A cache file that could not be used: the pane says nothing is kept offline, and why.
        _ = try widget.receive(delivered(SyncStatusChanged(app: .todo, status: SyncStatus(connection: .online, notKeptOffline: "the disk is full"))))
        #expect(widget.title == "Todo · 4 open · not kept offline: the disk is full")
    }

    @Test("hostile titles show placeholders; wide titles are clipped by columns before the date")
    func hostileAndWide() throws {
        let log = CommandLog()
        let widget = try mounted([
            TodoItem(id: 1, title: "evil \u{1B}[2J\u{9B}31m\r", due: date("2026-11-23")),
            TodoItem(id: 2, title: String(repeating: "漢字", count: 20), due: date("2026-11-24")),
        ], log: log)
        let shown = render(widget, size: Self.size).lines
        #expect(shown[0].contains("evil ␛[2J�31m␍"))
        #expect(!shown.joined().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(shown[1].hasSuffix(" Tue 24 Nov"))
        #expect(DisplayWidth.of(shown[1]) == Self.size.width)
    }

    @Test("10 000 items: moves and pages reach the end, and only the visible rows are drawn")
    func manyItems() throws {
        let log = CommandLog()
        var widget = try mounted((1...10_000).map { TodoItem(id: Int64($0), title: "Item \($0)") }, log: log)
        #expect(lines(widget)[0] == "[ ] Item 1")
        _ = try widget.press(Key(.end), log: log)
        #expect(lines(widget).last == "[ ] Item 10000")
        _ = try widget.press(Key(.pageUp), log: log)
        _ = try widget.press(.up, log: log)
        #expect(widget.state["selected"] == "9992")
        _ = try widget.press(Key(.home), log: log)
        #expect(widget.state["selected"] == "1")
        _ = try widget.receive(delivered(TodoItemDeleted(id: 1)))
        #expect(lines(widget)[0] == "[ ] Item 2")
    }
}
