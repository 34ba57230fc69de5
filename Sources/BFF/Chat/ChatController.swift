import Hummingbird
import MicroAppAPI

/// `/api/chat`: channels and their messages, shared by every user; each message carries its author,
/// the user whose token posted it.
struct ChatController {
    let store: BFFStore

    func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("channels", use: channels)
        group.post("channels", use: createChannel)
        group.get("channels/{id}/messages", use: messages)
        group.post("channels/{id}/messages", use: post)
    }

    @Sendable func channels(_ request: Request, context: BFFRequestContext) async throws -> Response {
        try .json(Page(items: try store.chatChannels(), next: nil))
    }

    @Sendable func createChannel(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard let user = context.user else { throw APIFailure.unauthorized }
        let new = try await request.decodeJSON(NewChatChannel.self, context: context)
        try ChatValidation.channelName(new.name)
        guard let channel = try store.createChatChannel(name: new.name, createdBy: user.name) else {
            throw APIFailure.conflict("channel exists", field: "name")
        }
        return try .json(channel, status: .created)
    }

    @Sendable func messages(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        var limit = ChatLimits.defaultPageSize
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...ChatLimits.maxPageSize).contains(value) else {
                throw APIFailure.badRequest("must be an integer from 1 to \(ChatLimits.maxPageSize)", field: "limit")
            }
            limit = value
        }
        var before: Int64?
        if let cursor = parameters.get("cursor") {
            guard let id = Int64(cursor), id >= 0 else { throw APIFailure.badRequest("is not a cursor this server gave", field: "cursor") }
            before = id
        }
        guard let page = try store.chatMessages(channel: try channel(context), before: before, limit: limit) else {
            throw APIFailure.notFound
        }
        return try .json(Page(items: page.items, next: page.more ? page.items.last.map { String($0.id) } : nil))
    }

    @Sendable func post(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard let user = context.user else { throw APIFailure.unauthorized }
        let channel = try channel(context)
        let new = try await request.decodeJSON(NewChatMessage.self, context: context)
        try ChatValidation.text(new.text)
        guard let message = try store.postChatMessage(channel: channel, author: user.name, text: new.text) else {
            throw APIFailure.notFound
        }
        return try .json(message, status: .created)
    }

    private func channel(_ context: BFFRequestContext) throws -> String {
        guard let id = context.parameters.get("id") else { throw APIFailure.notFound }
        return id
    }
}
