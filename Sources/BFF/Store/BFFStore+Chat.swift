import Foundation
import GRDB
import MicroAppAPI

extension BFFStore {
    /// Every channel, by id.
    public func chatChannels() throws -> [ChatChannel] {
        try writer.read { db in try ChatChannelRecord.order(ChatChannelRecord.Columns.id).fetchAll(db).map(\.channel) }
    }

    /// Creates a channel named `name` (also its id); nil when it exists already.
    public func createChatChannel(name: String, createdBy: String) throws -> ChatChannel? {
        try writer.write { db in
            guard try ChatChannelRecord.fetchOne(db, key: name) == nil else { return nil }
            let record = ChatChannelRecord(id: name, name: name, createdBy: createdBy, createdAt: Date())
            try record.insert(db)
            try self.record(.chatChannelCreated, owner: nil, data: record.channel, in: db)
            return record.channel
        }
    }

    /// Posts a message; nil when there is no such channel.
    public func postChatMessage(channel: String, author: String, text: String) throws -> ChatMessage? {
        try writer.write { db in
            guard try ChatChannelRecord.fetchOne(db, key: channel) != nil else { return nil }
            let sentAt = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            var record = ChatMessageRecord(id: nil, channelId: channel, author: author, text: text, sentAt: sentAt)
            try record.insert(db)
            try self.record(.chatMessagePosted, owner: nil, data: record.message, in: db)
            return record.message
        }
    }

    /// One page of a channel's messages, newest first, older than the message `before` if given,
    /// and whether older ones follow; nil when there is no such channel.
    public func chatMessages(channel: String, before: Int64?, limit: Int) throws -> (items: [ChatMessage], more: Bool)? {
        try writer.read { db in
            guard try ChatChannelRecord.fetchOne(db, key: channel) != nil else { return nil }
            var request = ChatMessageRecord.filter(ChatMessageRecord.Columns.channelId == channel)
            if let before { request = request.filter(ChatMessageRecord.Columns.id < before) }
            let records = try request.order(ChatMessageRecord.Columns.id.desc).limit(limit + 1).fetchAll(db)
            return (records.prefix(limit).map(\.message), records.count > limit)
        }
    }
}
