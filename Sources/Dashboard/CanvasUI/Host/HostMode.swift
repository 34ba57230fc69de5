/// The canvas's mode under any overlay, which decides which commands its keys run.
public enum HostMode: Equatable, Sendable {
    case normal
    /// Moving, resizing, adding and removing panes.
    case arrange
}
