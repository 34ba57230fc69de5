import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing

/// One text rule for every field of every route, and a store that gives back exactly what it took.
@Suite("BFF text fields")
struct TextRoundTripTests {
    @Test("NUL is refused in every text field, naming it; control characters in every single-line field")
    func refused() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let cases: [(path: String, body: String, field: String)] = [
                (APIPath.todoItems, #"{"title":"\u0000secret"}"#, "title"),
                (APIPath.todoItems, #"{"title":"ok","notes":"a\u0000b"}"#, "notes"),
                (APIPath.todoItems, #"{"title":"a\nb"}"#, "title"),
                (APIPath.todoItems, #"{"title":"a\u001b[2Jb"}"#, "title"),
                (APIPath.todoItems, #"{"title":"a\u0085b"}"#, "title"),
                (APIPath.calendarEvents, #"{"title":"x\u0000","start":"2026-11-23T09:00:00Z","end":"2026-11-23T10:00:00Z"}"#, "title"),
                (APIPath.chatChannels, #"{"name":"ops\u0000"}"#, "name"),
                (APIPath.chatMessages(channel: "general"), #"{"text":"hi\u0000there"}"#, "text"),
                (APIPath.authToken, #"{"username":"ann\nforged","password":"pw-ann"}"#, "username"),
                (APIPath.authToken, #"{"username":"ann","password":"pw\u0000"}"#, "password"),
            ]
            for (path, body, field) in cases {
                let response = try await client.send(.post, path, token: token, rawBody: body)
                #expect(response.status == .badRequest, "\(path) \(body)")
                #expect(try response.decode(APIError.self).field == field, "\(path) \(body)")
            }
            let created = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "ok"))
            let item = try created.decode(TodoItem.self)
            let patch = try await client.send(.patch, APIPath.todoItem(item.id), token: token, rawBody: #"{"notes":"\u0000"}"#)
            #expect(patch.status == .badRequest)
            #expect(try patch.decode(APIError.self).field == "notes")
            // Nothing refused was stored.
            let list = try await client.send(.get, APIPath.todoItems, token: token)
            #expect(try list.decode(Page<TodoItem>.self).items.map(\.title) == ["ok"])
        }
    }

    @Test("what a write returns, a read returns: random text of every kind the rules accept", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            var random = SeededRandom(seed: seed)
            for _ in 0..<40 {
                let title = random.text(length: 1...60, lines: .single)
                let notes = random.text(length: 0...200, lines: .multiple)
                let created = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: title, notes: notes))
                guard created.status == .created else {
                    // Only blank text may be refused.
                    let blank = title.allSatisfy { $0.isWhitespace }
                    let answer = String(buffer: created.body)
                    #expect(blank, "refused: \(answer)")
                    continue
                }
                let written = try created.decode(TodoItem.self)
                #expect(written.title.unicodeScalars.elementsEqual(title.unicodeScalars))
                #expect(written.notes.unicodeScalars.elementsEqual(notes.unicodeScalars))
                let read = try await client.send(.get, APIPath.todoItem(written.id), token: token).decode(TodoItem.self)
                #expect(read.title.unicodeScalars.elementsEqual(written.title.unicodeScalars))
                #expect(read.notes.unicodeScalars.elementsEqual(written.notes.unicodeScalars))

                let message = random.text(length: 1...80, lines: .multiple)
                let posted = try await client.send(.post, APIPath.chatMessages(channel: "general"), token: token, json: NewChatMessage(text: message))
                guard posted.status == .created else { continue }
                let sent = try posted.decode(ChatMessage.self)
                let page = try await client.send(.get, APIPath.chatMessages(channel: "general") + "?limit=1", token: token).decode(Page<ChatMessage>.self)
                #expect(page.items.first?.text.unicodeScalars.elementsEqual(sent.text.unicodeScalars) == true)
            }
        }
    }
}

/// SplitMix64 making text from every part of Unicode the rules allow: ASCII, accents and
/// combining marks, CJK, emoji with modifiers and ZWJ, bidi and format characters, and (for
/// multi-line fields) the control characters other than NUL.
struct SeededRandom {
    enum Lines { case single, multiple }
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func text(length: ClosedRange<Int>, lines: Lines) -> String {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x4E00...0x4FFF, 0x1F300...0x1F64F,
                                             0x1F3FB...0x1F3FF, 0x200B...0x200F, 0x202A...0x202E, 0xFE00...0xFE0F, 0xAC00...0xACFF]
        let controls: [ClosedRange<UInt32>] = [0x1...0x1F, 0x7F...0x9F]
        let count = length.lowerBound + below(length.count)
        var scalars = String.UnicodeScalarView()
        while scalars.count < count {
            let pool = lines == .multiple && below(8) == 0 ? controls : ranges
            let range = pool[below(pool.count)]
            if let scalar = Unicode.Scalar(range.lowerBound + UInt32(below(Int(range.upperBound - range.lowerBound) + 1))) {
                scalars.append(scalar)
            }
            if below(10) == 0 { scalars.append("\u{200D}") }
        }
        return String(scalars)
    }
}
