import CanvasCore
import ServerAPI

// The chat micro-app's canvas events (see `TodoEvents` for where they come from).

public struct ChatChannelsLoaded: BusEvent {
    public static let name: CanvasCore.EventName = "chat.channels.loaded"
    public let channels: [ChatChannel]
    public let origin: DataOrigin

    public init(channels: [ChatChannel], origin: DataOrigin) {
        self.channels = channels
        self.origin = origin
    }

    public var summary: String { "\(channels.count) channel\(channels.count == 1 ? "" : "s") from the \(origin)" }
}

public struct ChatChannelCreated: BusEvent {
    public static let name: CanvasCore.EventName = "chat.channel.created"
    public let channel: ChatChannel

    public init(channel: ChatChannel) { self.channel = channel }

    public var summary: String { "#\(channel.name)" }
}

/// A page of a channel's messages, newest first: the newest ones (`before` nil) or those older
/// than `before`. `complete` is true when no older messages exist.
public struct ChatMessagesLoaded: BusEvent {
    public static let name: CanvasCore.EventName = "chat.messages.loaded"
    public let channel: String
    public let before: Int64?
    public let messages: [ChatMessage]
    public let complete: Bool
    public let origin: DataOrigin

    public init(channel: String, before: Int64?, messages: [ChatMessage], complete: Bool, origin: DataOrigin) {
        self.channel = channel
        self.before = before
        self.messages = messages
        self.complete = complete
        self.origin = origin
    }

    public var summary: String {
        "#\(channel) \(messages.count) message\(messages.count == 1 ? "" : "s")\(before.map { " before #\($0)" } ?? "") from the \(origin)"
    }
}

/// A message arrived: from another user or another client live, or one of ours (with a local id
/// while it waits in the outbox). `mine` tells the user's own, which never count as unread.
public struct ChatMessageReceived: BusEvent {
    public static let name: CanvasCore.EventName = "chat.message.received"
    public let message: ChatMessage
    public let mine: Bool

    public init(message: ChatMessage, mine: Bool) {
        self.message = message
        self.mine = mine
    }

    /// Only the channel and author: message text may be long, and the log shows a line.
    public var summary: String { "#\(message.channel) from \(message.author)" }
}

/// A message written offline reached the server: `localID` is now `message.id`.
public struct ChatMessageSynced: BusEvent {
    public static let name: CanvasCore.EventName = "chat.message.synced"
    public let localID: Int64
    public let message: ChatMessage

    public init(localID: Int64, message: ChatMessage) {
        self.localID = localID
        self.message = message
    }

    public var summary: String { "#\(message.channel) #\(localID) → #\(message.id)" }
}
