@testable import HTTPClient
import Testing

@Suite("Reading HTTP/1.1 responses (the unix socket's engine)")
struct ResponseParserTests {
    /// Feeds `text` in pieces of `piece` bytes and collects what the parser found: status, body
    /// and whether it ended.
    private static func parse(
        _ text: String, piece: Int = .max, head: Bool = false, close: Bool = false
    ) throws(ResponseParser.Malformed) -> (status: Int?, headers: [ResponseParser.Header], body: String, ended: Bool, keeps: Bool) {
        var parser = ResponseParser(isHeadRequest: head)
        var parts: [ResponseParser.Part] = []
        var rest = Array(text.utf8)[...]
        while !rest.isEmpty {
            parts += try parser.feed(rest.prefix(piece))
            rest = rest.dropFirst(piece)
        }
        if close { parts += try parser.endOfInput() }
        var status: Int?
        var headers: [ResponseParser.Header] = []
        var body: [UInt8] = []
        var ended = false
        for part in parts {
            switch part {
            case .head(let code, let fields):
                #expect(status == nil, "one head only")
                status = code
                headers = fields
            case .body(let bytes):
                #expect(!ended)
                body += bytes
            case .end:
                #expect(!ended, "one end only")
                ended = true
            }
        }
        return (status, headers, String(decoding: body, as: UTF8.self), ended, parser.keepsConnection)
    }

    @Test("Content-Length, whole or a byte at a time; the connection is kept", arguments: [Int.max, 1, 7])
    func contentLength(piece: Int) throws {
        let response = try Self.parse("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello", piece: piece)
        #expect(response.status == 200 && response.body == "hello" && response.ended && response.keeps)
        #expect(response.headers == [.init(name: "Content-Type", value: "text/plain"), .init(name: "Content-Length", value: "5")])
    }

    @Test("chunks, with extensions and trailers, in any pieces", arguments: [Int.max, 1, 3])
    func chunked(piece: Int) throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\nB\r\n, and more.\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let response = try Self.parse(text, piece: piece)
        #expect(response.body == "hello, and more." && response.ended && response.keeps)
    }

    @Test("a chunked body not finished is not ended; its first chunks are handed over already")
    func chunkedInProgress() throws {
        let response = try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\ndata: \r\n3\r\nx\n\n\r\n")
        #expect(response.body == "data: x\n\n" && !response.ended)
    }

    @Test("1xx heads are skipped; HEAD, 204 and 304 have no body")
    func bodiless() throws {
        let continued = try Self.parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}")
        #expect(continued.status == 201 && continued.body == "{}" && continued.ended)
        let head = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 999\r\n\r\n", head: true)
        #expect(head.status == 200 && head.body.isEmpty && head.ended && head.keeps)
        for status in ["204 No Content", "304 Not Modified"] {
            let response = try Self.parse("HTTP/1.1 \(status)\r\n\r\n")
            #expect(response.ended && response.body.isEmpty)
        }
    }

    @Test("a body without length runs to the close, and the connection is not kept")
    func untilClose() throws {
        let open = try Self.parse("HTTP/1.1 200 OK\r\n\r\nsome text")
        #expect(open.body == "some text" && !open.ended && !open.keeps)
        let closed = try Self.parse("HTTP/1.1 200 OK\r\n\r\nsome text", close: true)
        #expect(closed.body == "some text" && closed.ended)
    }

    @Test("Connection: close and HTTP/1.0 end the connection; HTTP/1.0 keep-alive keeps it")
    func connectionReuse() throws {
        #expect(try !Self.parse("HTTP/1.1 200 OK\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n").keeps)
        #expect(try !Self.parse("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").keeps)
        #expect(try Self.parse("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").keeps)
        // Bytes after a whole response that nothing asked for: the connection cannot be trusted.
        #expect(try !Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n").keeps)
    }

    @Test("what a hostile or broken server sends is an error naming it, never a trap", arguments: [
        ("garbage\r\n\r\n", "not an HTTP/1.x status line"),
        ("HTTP/1.1 2000 OK\r\n\r\n", "not an HTTP/1.x status line"),
        ("HTTP/1.1 -20 OK\r\n\r\n", "not an HTTP/1.x status line"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", "Content-Length is not one number"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length is not one number"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "Content-Length is not one number"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", "a chunk size that is not a hexadecimal number below 2^60"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", "a chunk size that is not a hexadecimal number below 2^60"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a chunk size that is not a hexadecimal number below 2^60"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n", "a chunk is longer than its size"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "a transfer coding other than chunked last"),
        ("HTTP/1.1 200 OK\r\n folded: header\r\n\r\n", "a folded header line"),
        ("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "a header line without a name"),
        ("HTTP/1.1 101 Switching Protocols\r\n\r\n", "the server switched protocols"),
    ])
    func malformed(text: String, reason: String) {
        #expect(throws: ResponseParser.Malformed(reason: reason)) { try Self.parse(text) }
        #expect(throws: ResponseParser.Malformed(reason: reason)) { try Self.parse(text, piece: 1) }
    }

    @Test("heads, chunk-size lines and trailers are bounded however they arrive")
    func bounded() {
        let endlessHead = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: ResponseParser.maxHeadBytes)
        #expect(throws: ResponseParser.Malformed(reason: "response head longer than \(ResponseParser.maxHeadBytes) bytes")) {
            try Self.parse(endlessHead, piece: 1000)
        }
        let endlessSize = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "x", count: 5000)
        #expect(throws: ResponseParser.Malformed(reason: "chunk size longer than \(ResponseParser.maxChunkLineBytes) bytes")) {
            try Self.parse(endlessSize, piece: 100)
        }
        let endlessTrailer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + String(repeating: "y", count: 5000)
        #expect(throws: ResponseParser.Malformed(reason: "trailer longer than \(ResponseParser.maxChunkLineBytes) bytes")) {
            try Self.parse(endlessTrailer)
        }
    }

    @Test("a connection that closes early says where")
    func cutShort() {
        #expect(throws: ResponseParser.Malformed(reason: "the connection closed before a response")) { try Self.parse("", close: true) }
        #expect(throws: ResponseParser.Malformed(reason: "the connection closed inside the response head")) {
            try Self.parse("HTTP/1.1 200 OK\r\n", close: true)
        }
        #expect(throws: ResponseParser.Malformed(reason: "the connection closed before the whole body arrived")) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", close: true)
        }
    }

    @Test("the request written: target below the base URL's path, Host, headers, length, body")
    func requestBytes() throws {
        let request = HTTPClient.Request(.post, "/api/todo/items", query: [(name: "q", value: "a b")], headers: [(name: "X-One", value: "1")], body: Array("{}".utf8))
        let exchange = try Exchange.build(
            request, endpoint: .unixSocket("/tmp/s"), token: "t0k3n", connectTimeout: .seconds(1), totalTimeout: .seconds(1), maxResponseBytes: 100
        )
        let text = String(decoding: RequestHead.bytes(of: exchange), as: UTF8.self)
        #expect(text == "POST /api/todo/items?q=a%20b HTTP/1.1\r\nHost: localhost\r\nUser-Agent: termcanvas\r\nX-One: 1\r\n"
            + "Authorization: Bearer t0k3n\r\nContent-Length: 2\r\n\r\n{}")
        #expect(RequestHead.hostAndTarget("http://127.0.0.1:7450/prefix/api?x=1") == ("127.0.0.1:7450", "/prefix/api?x=1"))
        #expect(RequestHead.hostAndTarget("http://localhost") == ("localhost", "/"))
    }
}
