/// An event the message line tells of, whatever the focus, without alerting the terminal (unlike
/// an `UrgentEvent`): a new sign-in as the user, a calendar that could not be synced.
public protocol MessageLineEvent: BusEvent {
    var message: String { get }
}
