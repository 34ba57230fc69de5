/// A chat channel, shared by every user: `{id, name}`; its id is its name (`general`, …).
public struct ChatChannel: Codable, Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The body of `POST /api/chat/channels`.
public struct NewChatChannel: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// A chat message: `{id, channel, author, text, sentAt}`, `sentAt` an ISO 8601 UTC date-time with
/// milliseconds. `text` is exactly what its author sent, control characters included: clients
/// must render it safely.
public struct ChatMessage: Codable, Sendable, Equatable {
    public var id: Int64
    public var channel: String
    public var author: String
    public var text: String
    public var sentAt: String

    public init(id: Int64, channel: String, author: String, text: String, sentAt: String) {
        self.id = id
        self.channel = channel
        self.author = author
        self.text = text
        self.sentAt = sentAt
    }
}

/// The body of `POST /api/chat/channels/{id}/messages`; the author is whoever sends it.
public struct NewChatMessage: Codable, Sendable, Equatable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}

/// The limits the server enforces on chat.
public enum ChatLimits {
    /// Whether `name` is a channel name (and id): 1 to 32 lower-case letters, digits, `_` and `-`,
    /// starting with a letter or digit (`^[a-z0-9][a-z0-9_-]{0,31}$`, checked without a regex
    /// engine, which the dashboard does not link for one rule).
    public static func isChannelName(_ name: String) -> Bool {
        let bytes = name.utf8
        let isLetterOrDigit = { (byte: UInt8) in (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        guard let first = bytes.first, isLetterOrDigit(first), bytes.count <= 32 else { return false }
        return bytes.dropFirst().allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }
    /// The most characters a message's text may have, leading and trailing whitespace not counted
    /// (it needs at least one other).
    public static let textMaxLength = 4000
    /// How many messages a list gives without a `limit`.
    public static let defaultPageSize = 50
    /// The largest `limit` a message list accepts.
    public static let maxPageSize = 100
    /// How many channels a channel list gives without a `limit`, and the largest `limit` it accepts.
    public static let defaultChannelPageSize = 100
    public static let maxChannelPageSize = 500
    /// How many channels one user may create: channels are shared, so each costs everyone.
    public static let channelsPerUser = 50
    /// The channel that always exists.
    public static let generalChannel = "general"
}
