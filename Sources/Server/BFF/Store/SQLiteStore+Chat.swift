import Foundation
import GRDB
import MicroAppAPI

extension SQLiteStore {
    /// One page of the channels by id, after the channel `after` if given, and whether more follow.
    public func chatChannels(after: String?, limit: Int) async throws -> (items: [ChatChannel], more: Bool) {
        try read { db in
            var request = ChatChannelRecord.order(ChatChannelRecord.Columns.id)
            if let after { request = request.filter(ChatChannelRecord.Columns.id > after) }
            let records = try request.limit(limit + 1).fetchAll(db)
            return (records.prefix(limit).map(\.channel), records.count > limit)
        }
    }

    /// Creates a channel named `name` (also its id), unless it exists or `createdBy` has made as
    /// many channels as a user may: channels are shared by everyone, so one user must not be able
    /// to grow the list without end.
    public func createChatChannel(name: String, createdBy: String) async throws -> ChannelCreation {
        try keyedWrite { db in
            guard try ChatChannelRecord.fetchOne(db, key: name) == nil else { return .exists }
            let made = try ChatChannelRecord.filter(ChatChannelRecord.Columns.createdBy == createdBy).fetchCount(db)
            guard made < ChatLimits.channelsPerUser else { return .limitReached }
            let record = ChatChannelRecord(id: name, name: name, createdBy: createdBy, createdAt: Date())
            try record.insert(db)
            try self.record(.chatChannelCreated, owner: nil, data: record.channel, in: db)
            return .created(record.channel)
        }
    }

    /// Posts a message; nil when there is no such channel.
    public func postChatMessage(channel: String, author: String, text: String) async throws -> ChatMessage? {
        try keyedWrite { db in
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
    public func chatMessages(channel: String, before: Int64?, limit: Int) async throws -> (items: [ChatMessage], more: Bool)? {
        try read { db in
            guard try ChatChannelRecord.fetchOne(db, key: channel) != nil else { return nil }
            var request = ChatMessageRecord.filter(ChatMessageRecord.Columns.channelId == channel)
            if let before { request = request.filter(ChatMessageRecord.Columns.id < before) }
            let records = try request.order(ChatMessageRecord.Columns.id.desc).limit(limit + 1).fetchAll(db)
            return (records.prefix(limit).map(\.message), records.count > limit)
        }
    }
}
