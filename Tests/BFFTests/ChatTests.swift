import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing

@Suite("BFF chat API")
struct ChatTests {
    @Test("channels are shared; general always exists; names are checked; duplicates are 409")
    func channels() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            #expect(try await client.send(.get, APIPath.chatChannels, token: ann).decode(Page<ChatChannel>.self).items
                == [ChatChannel(id: "general", name: "general")])
            let created = try await client.send(.post, APIPath.chatChannels, token: ann, json: NewChatChannel(name: "ops-team_2"))
            #expect(created.status == .created)
            #expect(try created.decode(ChatChannel.self) == ChatChannel(id: "ops-team_2", name: "ops-team_2"))
            #expect(try await client.send(.get, APIPath.chatChannels, token: bob).decode(Page<ChatChannel>.self).items.map(\.id)
                == ["general", "ops-team_2"])

            for name in ["general", "ops-team_2"] {
                let duplicate = try await client.send(.post, APIPath.chatChannels, token: bob, json: NewChatChannel(name: name))
                #expect(duplicate.status == .conflict && duplicate.apiError == APIError(error: "channel exists", field: "name"))
            }
            for name in ["", "Ops", "-ops", "_ops", "a b", "a/b", "ops\n", String(repeating: "a", count: 33), "ünïcode"] {
                let response = try await client.send(.post, APIPath.chatChannels, token: ann, json: NewChatChannel(name: name))
                #expect(response.status == .badRequest && response.apiError?.field == "name", "\(name)")
            }
            for name in ["0", String(repeating: "z", count: 32)] {
                #expect(try await client.send(.post, APIPath.chatChannels, token: ann, json: NewChatChannel(name: name)).status == .created)
            }
            #expect(try await client.send(.get, APIPath.chatChannels, token: bob).decode(Page<ChatChannel>.self)
                == Page(items: ["0", "general", "ops-team_2", String(repeating: "z", count: 32)].map { ChatChannel(id: $0, name: $0) }))
        }
    }

    @Test("the channel list is paged; each user may create a bounded number of channels (403 past it)")
    func channelPagesAndLimit() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            for index in 0..<ChatLimits.channelsPerUser {
                let response = try await client.send(.post, APIPath.chatChannels, token: ann, json: NewChatChannel(name: "c\(index)"))
                #expect(response.status == .created)
            }
            let refused = try await client.send(.post, APIPath.chatChannels, token: ann, json: NewChatChannel(name: "one-more"))
            #expect(refused.status == .forbidden)
            #expect(try refused.decode(APIError.self).field == "name")
            // Another user still may.
            #expect(try await client.send(.post, APIPath.chatChannels, token: bob, json: NewChatChannel(name: "bobs")).status == .created)

            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = "?limit=7" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, APIPath.chatChannels + query, token: bob).decode(Page<ChatChannel>.self)
                #expect(page.items.count <= 7)
                seen += page.items.map(\.id)
                cursor = page.next
            } while cursor != nil
            #expect(seen == seen.sorted())
            #expect(Set(seen).count == ChatLimits.channelsPerUser + 2)  // general and bob's
            #expect(try await client.send(.get, APIPath.chatChannels + "?limit=0", token: bob).status == .badRequest)
            #expect(try await client.send(.get, APIPath.chatChannels + "?cursor=NOT%20A%20NAME", token: bob).status == .badRequest)
        }
    }

    @Test("messages carry their author from the token, list newest first, page by cursor")
    func messages() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let general = APIPath.chatMessages(channel: ChatLimits.generalChannel)
            // An `author` in the body is ignored: the token says who posts.
            let posted = try await client.send(.post, general, token: bob, rawBody: #"{"text": "hi", "author": "ann"}"#)
            #expect(posted.status == .created)
            let first = try posted.decode(ChatMessage.self)
            #expect(first.author == "bob" && first.channel == "general" && first.text == "hi")
            #expect(first.sentAt.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil)

            var sent = [first]
            for n in 1..<120 {
                sent.append(try await client.send(.post, general, token: n.isMultiple(of: 2) ? ann : bob,
                                                  json: NewChatMessage(text: "m\(n)")).decode(ChatMessage.self))
            }
            let ids = sent.map(\.id)
            // Bob sees Ann's messages too: newest first, 50 a page by default, each exactly as posted.
            var pages: [[ChatMessage]] = []
            var uri = general
            while true {
                let page = try await client.send(.get, uri, token: bob).decode(Page<ChatMessage>.self)
                pages.append(page.items)
                guard let next = page.next else { break }
                uri = general + "?cursor=" + next
            }
            #expect(pages.map(\.count) == [50, 50, 20])
            #expect(pages.flatMap { $0 } == sent.reversed())
            let small = try await client.send(.get, general + "?limit=3", token: ann).decode(Page<ChatMessage>.self)
            #expect(small.items.map(\.id) == Array(ids.suffix(3).reversed()) && small.next == String(ids[ids.count - 3]))
            let older = try await client.send(.get, general + "?limit=100&cursor=" + String(ids[ids.count - 3]), token: ann)
                .decode(Page<ChatMessage>.self)
            #expect(older.items.map(\.id) == Array(ids.dropLast(3).reversed().prefix(100)) && older.next == String(ids[17]))
            #expect(try await client.send(.get, general + "?cursor=" + String(ids[0]), token: ann).decode(Page<ChatMessage>.self)
                == Page(items: [], next: nil))
            for (query, field) in [("limit=0", "limit"), ("limit=101", "limit"), ("cursor=x", "cursor"), ("cursor=-1", "cursor")] {
                let response = try await client.send(.get, general + "?" + query, token: ann)
                #expect(response.status == .badRequest && response.apiError?.field == field, "\(query)")
            }
            #expect(try await client.send(.get, APIPath.chatMessages(channel: "nope"), token: ann).status == .notFound)
            #expect(try await client.send(.post, APIPath.chatMessages(channel: "nope"), token: ann,
                                          json: NewChatMessage(text: "x")).status == .notFound)
        }
    }

    @Test("text is kept exactly, escape sequences included; NUL, blank and overlong text are refused")
    func text() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let general = APIPath.chatMessages(channel: ChatLimits.generalChannel)
            // Escape and control sequences, a bell, a DEL, C1 controls, a decomposed é beside a
            // precomposed one (equal as Swift strings, not as bytes) and surrounding whitespace.
            let hostile = "\n \u{1B}[2J\u{1B}]0;pwned\u{07}  red \u{1B}[31mtext\u{1B}[0m\u{7F}\u{9B}1m\r\n\te\u{301} \u{E9} 👩‍💻 \u{1B}"
            let posted = try await client.send(.post, general, token: token, json: NewChatMessage(text: hostile))
            #expect(posted.status == .created)
            #expect(Array(try posted.decode(ChatMessage.self).text.utf8) == Array(hostile.utf8))
            let listed = try await client.send(.get, general, token: token).decode(Page<ChatMessage>.self).items.first
            #expect(listed.map { Array($0.text.utf8) } == Array(hostile.utf8))

            for text in ["a\u{0}b", "\u{0}", "", " \n\t\r", String(repeating: "x", count: ChatLimits.textMaxLength + 1)] {
                let response = try await client.send(.post, general, token: token, json: NewChatMessage(text: text))
                #expect(response.status == .badRequest && response.apiError?.field == "text", "\(text.debugDescription)")
            }
            let missing = try await client.send(.post, general, token: token, rawBody: "{}")
            #expect(missing.status == .badRequest && missing.apiError?.field == "text")
            // The limit counts characters without the whitespace around them, which is kept.
            for text in [String(repeating: "é", count: ChatLimits.textMaxLength),
                         "  \n" + String(repeating: "x", count: ChatLimits.textMaxLength) + "\n\t "] {
                let response = try await client.send(.post, general, token: token, json: NewChatMessage(text: text))
                #expect(response.status == .created)
                #expect(Array(try response.decode(ChatMessage.self).text.utf8) == Array(text.utf8))
            }
        }
    }

    @Test("chat reaches every user's live stream; calendar changes only their owner's")
    func liveEvents() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let bobStream = try SSEReader(port: port, token: bob)
            _ = try await bobStream.readHead()

            _ = try await client.send(.post, APIPath.calendarEvents, token: ann, json: NewCalendarEvent(
                title: "ann's", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z"))
            _ = try await client.send(.post, APIPath.chatChannels, token: ann, json: NewChatChannel(name: "random"))
            let message = try await client.send(.post, APIPath.chatMessages(channel: "random"), token: ann,
                                                json: NewChatMessage(text: "hello\r\nbob\n\n\u{1B}[31m\u{2028}")).decode(ChatMessage.self)
            let events = try await bobStream.events(2)
            #expect(events.map(\.name) == [EventName.chatChannelCreated.rawValue, EventName.chatMessagePosted.rawValue])
            let received = try JSONDecoder().decode(ChatMessage.self, from: Data(events[1].data.utf8))
            #expect(received == message && Array(received.text.utf8) == Array(message.text.utf8))
            #expect(try await bobStream.nextIs(.todoItemCreated) {
                _ = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "bob's"))
            })

            // Ann's own stream, resumed from the start, has her sign-in and calendar event as well.
            let annStream = try SSEReader(port: port, token: ann, lastEventID: 0)
            _ = try await annStream.readHead()
            #expect(try await annStream.events(4).map(\.name)
                == [EventName.authSessionStarted, .calendarEventCreated, .chatChannelCreated, .chatMessagePosted].map(\.rawValue))
        }
    }
}
