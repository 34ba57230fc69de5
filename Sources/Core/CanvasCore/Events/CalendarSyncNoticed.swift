/// A calendar besides the user's own (a subscription, a CalDAV one) could not be read or synced,
/// or kept an event twice (changed on both sides): said once on the message line, until its
/// problem changes.
public struct CalendarSyncNoticed: MessageLineEvent, Hashable {
    public static let name: EventName = "calendar.sync.noticed"
    public let calendar: String
    public let problem: String

    public init(calendar: String, problem: String) {
        self.calendar = calendar
        self.problem = problem
    }

    public var summary: String { "\(calendar): \(problem)" }
    public var message: String { summary }
}
