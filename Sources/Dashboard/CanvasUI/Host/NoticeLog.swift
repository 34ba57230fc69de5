/// Every notice of this session, oldest first, so a message cut to the status bar's width, or
/// gone at the next key, can be read again in full (Ctrl-G, "Messages" in the palette).
///
/// Bounded in entries and in bytes: the newest `capacity` notices, each at most `maximumBytes`
/// of text (a notice may quote what a server or an app said, and one character can be 60 KB).
public struct NoticeLog: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// The local time it was shown, `HH:MM:SS`.
        public let time: String
        public let notice: Notice
    }

    public static let capacity = 200
    public static let maximumBytes = 2_048

    public private(set) var entries: [Entry] = []

    public init() {}

    public mutating func append(_ notice: Notice, at time: String) {
        let text = Self.clipped(notice.text, toBytes: Self.maximumBytes)
        entries.append(Entry(time: time, notice: Notice(text: text, kind: notice.kind)))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// `text` cut on a character boundary to at most `limit` bytes, an ellipsis saying so.
    static func clipped(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let ellipsis = "…"
        var kept = ""
        var used = ellipsis.utf8.count
        for character in text {
            used += character.utf8.count
            guard used <= limit else { break }
            kept.append(character)
        }
        return kept + ellipsis
    }

    /// `HH:MM:SS` of a number of seconds since midnight, local time.
    static func time(secondsIntoDay seconds: Int) -> String {
        let day = ((seconds % 86_400) + 86_400) % 86_400
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return twoDigits(day / 3_600) + ":" + twoDigits(day / 60 % 60) + ":" + twoDigits(day % 60)
    }
}
