import CalendarTime

/// A checked `TodoPatch`: only the fields present change; `due` `.some(nil)` clears it.
public struct TodoChange: Sendable, Equatable {
    public var title: String?
    public var notes: String?
    public var done: Bool?
    public var due: CalendarDate??

    public init(title: String? = nil, notes: String? = nil, done: Bool? = nil, due: CalendarDate?? = .none) {
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
    }
}
