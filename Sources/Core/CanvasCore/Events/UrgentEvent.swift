/// An event the user must notice wherever the focus is (a reminder going off): the host puts its
/// `notice` on the message line and alerts the terminal (its bell, or a notification where the
/// terminal shows them).
public protocol UrgentEvent: BusEvent {
    /// What the message line says: times of day in the zone whose offset `secondsFromGMT` gives
    /// for a moment (seconds since 1970).
    func notice(secondsFromGMT: (Int64) -> Int) -> String
}
