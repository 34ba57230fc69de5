import CalendarTime
import ServerAPI

/// What a todo list asks for: filters, a page size and where the previous page ended.
package struct TodoQuery: Sendable, Hashable {
    package var done: Bool?
    /// Earliest due date, inclusive (`YYYY-MM-DD`); items without a due date are left out when set.
    package var from: CalendarDate?
    /// Latest due date, inclusive (`YYYY-MM-DD`); items without a due date are left out when set.
    package var to: CalendarDate?
    package var limit: Int
    /// The id of the last item of the previous page.
    package var after: Int64?

    package init(done: Bool? = nil, from: CalendarDate? = nil, to: CalendarDate? = nil, limit: Int = 100, after: Int64? = nil) {
        self.done = done
        self.from = from
        self.to = to
        self.limit = limit
        self.after = after
    }
}
