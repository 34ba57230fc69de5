import HTTPClient
import Testing

@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
    typealias Event = ServerSentEventParser.Event

    private func parse(_ text: String) throws -> [ServerSentEventParser.Output] {
        var parser = ServerSentEventParser()
        return try parser.feed(Array(text.utf8))
    }

    private func events(_ outputs: [ServerSentEventParser.Output]) -> [Event] {
        outputs.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test("id, event and data lines make an event, dispatched on the blank line")
    func basicEvent() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("id: 7\nevent: todo.item.created\ndata: {\"id\":7}\n".utf8)).isEmpty)
        #expect(try parser.feed(Array("\n".utf8)) == [.event(Event(id: "7", name: "todo.item.created", data: #"{"id":7}"#))])
        #expect(parser.lastEventID == "7")
    }

    @Test("data lines join with newlines; an event without a name is a message")
    func multiLineData() throws {
        #expect(try events(parse("data: one\ndata:two\ndata:  three\n\n")) == [Event(id: nil, name: "message", data: "one\ntwo\n three")])
        #expect(try events(parse("data\ndata\n\n")) == [Event(id: nil, name: "message", data: "\n")])
        #expect(try events(parse("data:\n\n")) == [Event(id: nil, name: "message", data: "")])
    }

    @Test("comments and unknown fields are ignored; a blank line without data dispatches nothing and resets the name")
    func commentsAndEmptyEvents() throws {
        #expect(try parse(": keep-alive\n\n").isEmpty)
        #expect(try events(parse("event: a\n\ndata: x\n\n")) == [Event(id: nil, name: "message", data: "x")])
        #expect(try events(parse("foo: bar\ndata: x\n: note\n\n")) == [Event(id: nil, name: "message", data: "x")])
    }

    @Test("retry takes only ASCII digits")
    func retry() throws {
        #expect(try parse("retry: 2000\n\n") == [.retry(milliseconds: 2000)])
        #expect(try parse("retry: 2s\nretry:\nretry: -1\nretry: 1.5\n\n").isEmpty)
    }

    @Test("the last event id carries over to later events; an id with NUL is ignored")
    func eventIDs() throws {
        let outputs = try events(parse("id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}\ndata: c\n\nid\ndata: d\n\n"))
        #expect(outputs.map(\.id) == ["1", "1", "1", ""])
        var resumed = ServerSentEventParser(lastEventID: "41")
        #expect(events(try resumed.feed(Array("data: e\n\n".utf8))).map(\.id) == ["41"])
    }

    @Test("CRLF, LF and lone CR all end lines")
    func lineEndings() throws {
        let expected = [Event(id: "1", name: "x", data: "a\nb")]
        #expect(try events(parse("id: 1\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\n")) == expected)
        #expect(try events(parse("id: 1\revent: x\rdata: a\rdata: b\r\r")) == expected)
        #expect(try events(parse("id: 1\nevent: x\r\ndata: a\rdata: b\n\r\n")) == expected)
    }

    @Test("a leading byte order mark is dropped, only at the start")
    func byteOrderMark() throws {
        #expect(try events(parse("\u{FEFF}data: x\n\n")) == [Event(id: nil, name: "message", data: "x")])
        var parser = ServerSentEventParser()
        #expect(try parser.feed([0xEF, 0xBB]).isEmpty)
        #expect(events(try parser.feed(Array([0xBF] + Array("data: y\n\n".utf8)))) == [Event(id: nil, name: "message", data: "y")])
    }

    @Test("an event the stream ends in the middle of is never dispatched")
    func incompleteEvent() throws {
        #expect(try parse("data: x\n").isEmpty)
        #expect(try parse("data: x").isEmpty)
    }

    /// A stream with every feature: CRLF and CR endings, multi-byte text, comments, retry.
    private static let sample = Array(
        "\u{FEFF}retry: 1500\r\n: hello\r\nid: 1\r\nevent: chat.message.posted\r\ndata: {\"text\":\"héllo wörld 👋🏽\"}\r\n\r\n"
            .utf8
    ) + Array("id: 2\revent: todo.item.deleted\rdata: {\"id\":2}\r\rdata: 日本語\ndata: ✓\n\n".utf8)

    private static let sampleOutputs: [ServerSentEventParser.Output] = [
        .retry(milliseconds: 1500),
        .event(Event(id: "1", name: "chat.message.posted", data: #"{"text":"héllo wörld 👋🏽"}"#)),
        .event(Event(id: "2", name: "todo.item.deleted", data: #"{"id":2}"#)),
        .event(Event(id: "2", name: "message", data: "日本語\n✓")),
    ]

    @Test("splitting the stream anywhere, even inside a CRLF or a UTF-8 sequence, changes nothing")
    func everySplit() throws {
        var whole = ServerSentEventParser()
        #expect(try whole.feed(Self.sample) == Self.sampleOutputs)
        for split in 0...Self.sample.count {
            var parser = ServerSentEventParser()
            let outputs = try parser.feed(Self.sample[..<split]) + parser.feed(Self.sample[split...])
            #expect(outputs == Self.sampleOutputs, "split at \(split)")
        }
    }

    @Test("byte by byte gives the same events")
    func byteByByte() throws {
        var parser = ServerSentEventParser()
        let outputs = try Self.sample.flatMap { try parser.feed([$0]) }
        #expect(outputs == Self.sampleOutputs)
    }

    @Test("invalid UTF-8 becomes replacement characters, not a crash")
    func invalidUTF8() throws {
        var parser = ServerSentEventParser()
        let outputs = try parser.feed(Array("data: a".utf8) + [0xFF, 0xC3] + Array("\n\n".utf8))
        #expect(events(outputs) == [Event(id: nil, name: "message", data: "a\u{FFFD}\u{FFFD}")])
    }
    @Test("a line or an event past the bound throws, whether it comes as one line or many")
    func bounded() throws {
        var endless = ServerSentEventParser(maxEventBytes: 100)
        #expect(throws: ServerSentEventParser.TooLarge(limit: 100)) {
            _ = try endless.feed(Array(("data: " + String(repeating: "x", count: 200)).utf8))
        }
        var manyLines = ServerSentEventParser(maxEventBytes: 100)
        #expect(throws: ServerSentEventParser.TooLarge(limit: 100)) {
            for _ in 0..<20 { _ = try manyLines.feed(Array("data: 0123456789\n".utf8)) }
        }
        // Below the bound, event after event: the count starts again with each event.
        var parser = ServerSentEventParser(maxEventBytes: 100)
        for index in 0..<1000 {
            #expect(try parser.feed(Array("id: \(index)\ndata: 0123456789\n\n".utf8)).count == 1)
        }
        // Comments (keep-alives) hold nothing.
        for _ in 0..<1000 { #expect(try parser.feed(Array(": keep-alive\n".utf8)).isEmpty) }
    }

}
