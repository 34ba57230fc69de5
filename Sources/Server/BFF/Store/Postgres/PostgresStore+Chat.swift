import Foundation
import MicroAppAPI
import PostgresNIO

extension PostgresStore {
    public func chatChannels(after: String?, limit: Int) async throws -> (items: [ChatChannel], more: Bool) {
        var sql = SQL("SELECT id, name FROM chat_channels")
        if let after { sql.append(" WHERE id > ", after) }
        sql.append(" ORDER BY id LIMIT ", Int64(limit + 1))
        let found = try await rows(sql.query, as: (String, String).self)
        return (found.prefix(limit).map { ChatChannel(id: $0.0, name: $0.1) }, found.count > limit)
    }

    /// As `SQLiteStore`'s; the creator's channels are counted under a lock of theirs, so two
    /// instances creating at once cannot pass the limit together.
    public func createChatChannel(name: String, createdBy: String) async throws -> ChannelCreation {
        try await keyedTransaction { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(hashtext(\("chat.channel." + createdBy)))", logger: logger)
            let made = try await connection.rows("SELECT COUNT(*) FROM chat_channels WHERE created_by = \(createdBy)",
                                                 as: Int64.self, logger: logger)[0]
            if try await connection.run("SELECT 1 FROM chat_channels WHERE id = \(name)", logger: logger) > 0 { return .exists }
            guard made < ChatLimits.channelsPerUser else { return .limitReached }
            let created = try await connection.run("""
                INSERT INTO chat_channels (id, name, created_by) VALUES (\(name), \(name), \(createdBy))
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """, logger: logger)
            guard created > 0 else { return .exists }
            let channel = ChatChannel(id: name, name: name)
            try await record(.chatChannelCreated, owner: nil, data: channel, on: connection)
            return .created(channel)
        }
    }

    public func postChatMessage(channel: String, author: String, text: String) async throws -> ChatMessage? {
        try await keyedTransaction { connection -> ChatMessage? in
            let sentAt = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            // The channel's row is locked against a concurrent delete; none means no such channel.
            guard try await connection.run("SELECT 1 FROM chat_channels WHERE id = \(channel) FOR SHARE", logger: logger) > 0 else {
                return nil
            }
            let id = try await connection.rows("""
                INSERT INTO chat_messages (channel_id, author, text, sent_at) VALUES (\(channel), \(author), \(text), \(sentAt))
                RETURNING id
                """, as: Int64.self, logger: logger)[0]
            let message = ChatMessage(id: id, channel: channel, author: author, text: text, sentAt: sentAt)
            try await record(.chatMessagePosted, owner: nil, data: message, on: connection)
            return message
        }
    }

    public func chatMessages(channel: String, before: Int64?, limit: Int) async throws -> (items: [ChatMessage], more: Bool)? {
        guard try await !rows("SELECT id FROM chat_channels WHERE id = \(channel)", as: String.self).isEmpty else { return nil }
        var sql = SQL("SELECT id, author, text, sent_at FROM chat_messages WHERE channel_id = ", channel)
        if let before { sql.append(" AND id < ", before) }
        sql.append(" ORDER BY id DESC LIMIT ", Int64(limit + 1))
        let found = try await rows(sql.query, as: (Int64, String, String, String).self)
        let messages = found.prefix(limit).map { ChatMessage(id: $0.0, channel: channel, author: $0.1, text: $0.2, sentAt: $0.3) }
        return (messages, found.count > limit)
    }
}
