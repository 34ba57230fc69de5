import Foundation
import ServerAPI

/// Chat channels, shared by every user and named by their id, and their messages. A message keeps
/// its author's name as it was when sent, and `sentAt` as the API shows it, formatted once.
extension BFFStore {
    /// One page of the channels by id, after the channel `after` if given, and whether more follow.
    package func chatChannels(after: String?, limit: Int) async throws -> (items: [ChatChannel], more: Bool) {
        var statement: SQLStatement = "SELECT id, name FROM chat_channels"
        if let after { statement += " WHERE id > \(after)" }
        statement += " ORDER BY id LIMIT \(limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            let channels = try rows.map { row in ChatChannel(id: try row.text(0), name: try row.text(1)) }
            return .done((Array(channels.prefix(limit)), channels.count > limit))
        }, snapshot: false)
    }

    /// Creates a channel named `name` (also its id), unless it exists or `createdBy` has made as
    /// many channels as a user may: channels are shared by everyone, so one user must not be able
    /// to grow the list without end. The creator's channels are counted under a lock of theirs, so
    /// two instances creating at once cannot pass the limit together.
    package func createChatChannel(name: String, createdBy: String) async throws -> ChannelCreation {
        try await keyedWrite(.lock("chat.channel." + createdBy, next: .run("""
            SELECT (SELECT COUNT(*) FROM chat_channels WHERE created_by = \(createdBy)),
                   (SELECT COUNT(*) FROM chat_channels WHERE id = \(name))
            """) { rows in
            guard try rows.first?.integer(1) == 0 else { return .done(.exists) }
            guard try rows.first?.integer(0) ?? 0 < ChatLimits.channelsPerUser else { return .done(.limitReached) }
            return .run("""
                INSERT INTO chat_channels (id, name, created_by, created_at) VALUES (\(name), \(name), \(createdBy), \(.now))
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """) { rows in
                guard !rows.isEmpty else { return .done(.exists) }
                let channel = ChatChannel(id: name, name: name)
                return .record(.chatChannelCreated, owner: nil, data: channel, then: .done(.created(channel)))
            }
        }))
    }

    /// Posts a message; nil when there is no such channel.
    package func postChatMessage(channel: String, author: String, text: String) async throws -> ChatMessage? {
        let sentAt = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        // The channel's row is locked against a concurrent delete; none means no such channel.
        return try await keyedWrite(Plan.run("SELECT 1 FROM chat_channels WHERE id = \(channel)\(.forShare)") { rows -> Plan<ChatMessage?> in
            guard !rows.isEmpty else { return .done(nil) }
            return .run("""
                INSERT INTO chat_messages (channel_id, author, text, sent_at) VALUES (\(channel), \(author), \(text), \(sentAt))
                RETURNING id
                """) { rows in
                guard let id = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("chat_messages, just written") }
                let message = ChatMessage(id: id, channel: channel, author: author, text: text, sentAt: sentAt)
                return .record(.chatMessagePosted, owner: nil, data: message, then: .done(message))
            }
        })
    }

    /// One page of a channel's messages, newest first, older than the message `before` if given,
    /// and whether older ones follow; nil when there is no such channel.
    package func chatMessages(channel: String, before: Int64?, limit: Int) async throws -> (items: [ChatMessage], more: Bool)? {
        var list: SQLStatement = "SELECT id, author, text, sent_at FROM chat_messages WHERE channel_id = \(channel)"
        if let before { list += " AND id < \(before)" }
        list += " ORDER BY id DESC LIMIT \(limit + 1)"
        return try await runRead(Plan.run("SELECT 1 FROM chat_channels WHERE id = \(channel)") { [list] rows in
            guard !rows.isEmpty else { return .done(nil) }
            return .run(list) { rows in
                let messages = try rows.map { row in
                    ChatMessage(id: try row.integer(0), channel: channel, author: try row.text(1), text: try row.text(2), sentAt: try row.text(3))
                }
                return .done((Array(messages.prefix(limit)), messages.count > limit))
            }
        }, snapshot: true)
    }
}
