/// The limits the server enforces on todo fields, for clients that check before sending.
public enum TodoLimits {
    public static let titleLength = 1...200
    public static let notesMaxLength = 2000
    /// Items one user may keep (403 past it): ~1 GB at most, so no one fills the disk others need.
    public static let itemsPerUser = 100_000
    /// The largest `limit` a list accepts; also its default.
    public static let maxPageSize = 100
    /// A priority, as iCalendar's `PRIORITY`: 1 the highest to 9 the lowest (0, none, also taken).
    public static let priorities = 1...9
}
