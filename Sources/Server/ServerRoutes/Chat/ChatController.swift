import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// `/api/chat`: channels and their messages, shared by every user; each message carries its author,
/// the user whose token posted it.
package struct ChatController {
    let store: BFFStore

    package init(store: BFFStore) {
        self.store = store
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("channels", use: channels)
        group.post("channels", use: createChannel)
        group.get("channels/{id}/messages", use: messages)
        group.post("channels/{id}/messages", use: post)
    }

    @Sendable func channels(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let limit = try request.pageLimit(maximum: ChatLimits.maxChannelPageSize, default: ChatLimits.defaultChannelPageSize)
        let after = try request.pageCursor { ChatLimits.isChannelName($0) ? $0 : nil }
        let page = try await store.chatChannels(after: after, limit: limit)
        return try .json(Page(items: page.items, next: page.more ? page.items.last?.id : nil))
    }

    @Sendable func createChannel(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let new = try await request.decodeJSON(NewChatChannel.self, context: context)
        try ChatValidation.channelName(new.name)
        switch try await store.createChatChannel(name: new.name, createdBy: user.name) {
        case .created(let channel):
            return try .json(channel, status: .created)
        case .exists:
            throw APIFailure.conflict("channel exists", field: "name")
        case .limitReached:
            throw APIFailure(status: .forbidden, body: APIError(error: "a user may create at most \(ChatLimits.channelsPerUser) channels", field: "name"))
        }
    }

    @Sendable func messages(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let limit = try request.pageLimit(maximum: ChatLimits.maxPageSize, default: ChatLimits.defaultPageSize)
        let before = try request.pageCursor(Request.idCursor)
        guard let page = try await store.chatMessages(channel: try channel(context), before: before, limit: limit) else {
            throw APIFailure.notFound
        }
        return try .json(Page(items: page.items, next: page.more ? page.items.last.map { String($0.id) } : nil))
    }

    @Sendable func post(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let channel = try channel(context)
        let new = try await request.decodeJSON(NewChatMessage.self, context: context)
        try ChatValidation.text(new.text)
        guard let message = try await store.postChatMessage(channel: channel, author: user.name, text: new.text) else {
            throw APIFailure.notFound
        }
        return try .json(message, status: .created)
    }

    private func channel(_ context: BFFRequestContext) throws -> String {
        guard let id = context.parameters.get("id") else { throw APIFailure.notFound }
        return id
    }
}
