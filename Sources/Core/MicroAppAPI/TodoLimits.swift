/// The limits the server enforces on todo fields, for clients that check before sending.
public enum TodoLimits {
    public static let titleLength = 1...200
    public static let notesMaxLength = 2000
    /// The largest `limit` a list accepts; also its default.
    public static let maxPageSize = 100
}
