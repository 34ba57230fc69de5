import AppModel
import CalendarTime
import CanvasCore
import ServerAPI

/// The todo items a widget shows, as a value: all items by id, the visible ones in order (a date
/// filter applied), and the selection, which follows its item when the list changes.
///
/// Order: open before done, then by priority (1 first, none last), then by due date (none last),
/// then oldest first, items still waiting to be sent last. Reordering happens only when the data or the filter changes, so moving the
/// selection stays O(1) with any number of items.
struct TodoList: Equatable {
    private(set) var items: [Int64: TodoItem] = [:]
    private(set) var visible: [Int64] = []
    private(set) var selected = 0
    /// Show only items due on this day.
    var filter: CalendarDate? {
        didSet { if filter != oldValue { reorder() } }
    }

    init(filter: CalendarDate? = nil) {
        self.filter = filter
    }

    var selectedItem: TodoItem? {
        visible.indices.contains(selected) ? items[visible[selected]] : nil
    }

    /// Open items among the visible, counted when the list changes (the title shows it every frame).
    private(set) var openCount = 0

    mutating func replaceAll(_ list: [TodoItem]) {
        let keep = selectedItem?.id
        items = Dictionary(list.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        reorder(keeping: keep)
    }

    mutating func upsert(_ item: TodoItem) {
        let keep = selectedItem?.id
        items[item.id] = item
        reorder(keeping: keep)
    }

    mutating func remove(_ id: Int64) {
        let keep = selectedItem?.id == id ? nil : selectedItem?.id
        items[id] = nil
        reorder(keeping: keep)
    }

    /// A local item reached the server under a new id; the selection stays on it.
    mutating func replace(_ localID: Int64, with item: TodoItem) {
        let keep = selectedItem?.id == localID ? item.id : selectedItem?.id
        items[localID] = nil
        items[item.id] = item
        reorder(keeping: keep)
    }

    mutating func select(_ index: Int) {
        selected = max(0, min(visible.count - 1, index))
    }

    mutating func select(id: Int64) {
        if let index = visible.firstIndex(of: id) { selected = index }
    }

    /// Sorts small keys rather than the items themselves: with 10 000 items, sorting whole items
    /// (strings and all) was the main actor's largest cost in taking in a reload (per `perf`).
    private mutating func reorder(keeping id: Int64? = nil) {
        let keep = id ?? selectedItem?.id
        let day = filter
        var keys: [OrderKey] = []
        keys.reserveCapacity(items.count)
        for item in items.values where day == nil || item.due == day { keys.append(OrderKey(item)) }
        keys.sort()
        visible = keys.map(\.id)
        openCount = keys.count { !$0.done }
        if let keep, let index = visible.firstIndex(of: keep) {
            selected = index
        } else {
            selected = max(0, min(selected, visible.count - 1))
        }
    }

    /// What the order looks at of an item.
    private struct OrderKey: Comparable {
        let done: Bool
        /// 1 to 9, none as 10.
        let priority: Int
        let due: CalendarDate?
        let id: Int64

        init(_ item: TodoItem) {
            done = item.done
            priority = item.priority ?? 10
            due = item.due
            id = item.id
        }

        static func < (a: OrderKey, b: OrderKey) -> Bool {
            if a.done != b.done { return !a.done }
            if a.priority != b.priority { return a.priority < b.priority }
            switch (a.due, b.due) {
            case let (x?, y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            let aLocal = LocalID.isLocal(a.id), bLocal = LocalID.isLocal(b.id)
            if aLocal != bLocal { return bLocal }
            return aLocal ? a.id > b.id : a.id < b.id
        }
    }
}
