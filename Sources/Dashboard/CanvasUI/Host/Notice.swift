/// A one-line message in the status bar; it stays until the next key, so idle stays idle.
public struct Notice: Equatable, Sendable {
    public enum Kind: Sendable { case info, error }

    public let text: String
    public let kind: Kind

    public static func info(_ text: String) -> Notice { Notice(text: text, kind: .info) }
    public static func error(_ text: String) -> Notice { Notice(text: text, kind: .error) }
}
