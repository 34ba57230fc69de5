/// Reads one HTTP/1.1 response out of the bytes a connection receives, in whatever pieces they
/// come: the head (1xx interim heads skipped), then the body framed by `Content-Length`, by
/// chunks, or by the end of the connection. A value with no IO, so every framing and every
/// malformed input is tested without a socket (`ResponseParserTests`).
///
/// Nothing a server sends is used unchecked: the head and each chunk-size line are bounded,
/// lengths are parsed with overflow checks, and anything that does not parse is a `Malformed`
/// error naming what, never a trap.
struct ResponseParser {
    /// What one `feed` found, in order.
    enum Part: Equatable {
        case head(status: Int, headers: [Header])
        case body(ArraySlice<UInt8>)
        case end
    }

    struct Header: Equatable {
        var name: String
        var value: String
    }

    struct Malformed: Error, Equatable {
        var reason: String
    }

    /// The longest head accepted, status line and headers together.
    static let maxHeadBytes = 64 << 10
    /// The longest chunk-size line (with extensions) or trailer section accepted.
    static let maxChunkLineBytes = 4 << 10

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    private var state = State.head
    /// Bytes of a line or head not complete yet.
    private var pending: [UInt8] = []
    private let isHeadRequest: Bool
    /// Whether `.end` was handed out.
    private var ended = false
    /// Whether the connection may carry another request once this response is done.
    private(set) var keepsConnection = true
    /// Whether any byte of the response arrived (a kept connection the server had closed answers
    /// nothing, and its request may go again on a new one).
    private(set) var receivedAnything = false

    init(isHeadRequest: Bool) {
        self.isHeadRequest = isHeadRequest
    }

    var isDone: Bool {
        if case .done = state { return true }
        return false
    }

    /// Takes the next bytes of the connection; returns the parts they complete.
    mutating func feed(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> [Part] {
        if !bytes.isEmpty { receivedAnything = true }
        var parts: [Part] = []
        var rest = bytes
        while !rest.isEmpty {
            switch state {
            case .head:
                guard let head = try takeLine(from: &rest, until: Self.headEnd, limit: Self.maxHeadBytes, what: "response head") else { break }
                if let part = try readHead(head) { parts.append(part) }
            case .fixed(let remaining):
                let piece = rest.prefix(remaining)
                rest = rest.dropFirst(piece.count)
                parts.append(.body(piece))
                state = remaining == piece.count ? .done : .fixed(remaining: remaining - piece.count)
            case .chunkSize:
                guard let line = try takeLine(from: &rest, until: Self.lineEnd, limit: Self.maxChunkLineBytes, what: "chunk size") else { break }
                let size = try Self.chunkSize(line)
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let piece = rest.prefix(remaining)
                rest = rest.dropFirst(piece.count)
                parts.append(.body(piece))
                state = remaining == piece.count ? .chunkDataEnd : .chunkData(remaining: remaining - piece.count)
            case .chunkDataEnd:
                guard let line = try takeLine(from: &rest, until: Self.lineEnd, limit: 2, what: "chunk end") else { break }
                guard line.isEmpty else { throw Malformed(reason: "a chunk is longer than its size") }
                state = .chunkSize
            case .trailers:
                guard let line = try takeLine(from: &rest, until: Self.lineEnd, limit: Self.maxChunkLineBytes, what: "trailer") else { break }
                if line.isEmpty { state = .done }
            case .untilClose:
                parts.append(.body(rest))
                rest = []
            case .done:
                // Bytes after a whole response that was not asked for: the connection is not reusable.
                keepsConnection = false
                rest = []
            }
            if case .done = state, !ended {
                ended = true
                parts.append(.end)
            }
        }
        return parts
    }

    /// The connection ended: completes a body that runs until the close, else says what was cut.
    mutating func endOfInput() throws(Malformed) -> [Part] {
        keepsConnection = false
        switch state {
        case .untilClose:
            state = .done
            ended = true
            return [.end]
        case .done:
            return []
        case .head:
            throw Malformed(reason: receivedAnything ? "the connection closed inside the response head" : "the connection closed before a response")
        default:
            throw Malformed(reason: "the connection closed before the whole body arrived")
        }
    }

    // MARK: - Lines

    private static let headEnd: [UInt8] = Array("\r\n\r\n".utf8)
    private static let lineEnd: [UInt8] = Array("\r\n".utf8)

    /// Takes bytes up to and including `terminator`; returns them without it, or nil (keeping
    /// them in `pending`) when the terminator has not arrived.
    private mutating func takeLine(
        from rest: inout ArraySlice<UInt8>, until terminator: [UInt8], limit: Int, what: String
    ) throws(Malformed) -> [UInt8]? {
        let before = pending.count
        pending += rest
        // Searched from where the last piece could still complete a terminator, so a head that
        // arrives a byte at a time costs its length, not its length squared.
        let searchStart = max(0, before - terminator.count + 1)
        guard let end = pending[searchStart...].firstRange(of: terminator) else {
            rest = []
            guard pending.count <= limit + terminator.count else { throw Malformed(reason: "\(what) longer than \(limit) bytes") }
            return nil
        }
        guard end.lowerBound <= limit else { throw Malformed(reason: "\(what) longer than \(limit) bytes") }
        let line = Array(pending[..<end.lowerBound])
        rest = rest.dropFirst(end.upperBound - before)
        pending = []
        return line
    }

    // MARK: - Head

    /// Reads a whole head; returns it, or nil for a 1xx interim head (the real one follows).
    private mutating func readHead(_ head: [UInt8]) throws(Malformed) -> Part? {
        let lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard let statusLine = lines.first else { throw Malformed(reason: "an empty response head") }
        let (version, status) = try Self.statusLine(statusLine)
        var headers: [Header] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw Malformed(reason: "a header line without a name")
            }
            guard line.first != UInt8(ascii: " "), line.first != UInt8(ascii: "\t") else {
                throw Malformed(reason: "a folded header line")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
            headers.append(Header(name: name, value: value))
        }
        if (100..<200).contains(status) {
            guard status != 101 else { throw Malformed(reason: "the server switched protocols") }
            return nil
        }
        let tokens = { (name: String) in
            headers.filter { $0.name.lowercased() == name }.flatMap { $0.value.lowercased().split(separator: ",").map { String($0).trimmingSpaces } }
        }
        if version == "HTTP/1.0" ? !tokens("connection").contains("keep-alive") : tokens("connection").contains("close") {
            keepsConnection = false
        }
        let lengths = Set(headers.filter { $0.name.lowercased() == "content-length" }.map(\.value))
        let codings = tokens("transfer-encoding")
        if isHeadRequest || status == 204 || status == 304 {
            state = .done
        } else if !codings.isEmpty {
            guard codings.last == "chunked" else { throw Malformed(reason: "a transfer coding other than chunked last") }
            state = .chunkSize
        } else if let length = lengths.first {
            guard lengths.count == 1, let count = Self.decimal(length) else { throw Malformed(reason: "Content-Length is not one number") }
            state = count == 0 ? .done : .fixed(remaining: count)
        } else {
            keepsConnection = false
            state = .untilClose
        }
        return .head(status: status, headers: headers)
    }

    /// `HTTP/1.1 200 OK` → ("HTTP/1.1", 200).
    private static func statusLine(_ line: ArraySlice<UInt8>) throws(Malformed) -> (String, Int) {
        let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        let version = fields.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard version == "HTTP/1.1" || version == "HTTP/1.0", fields.count >= 2, fields[1].count == 3,
              let status = decimal(String(decoding: fields[1], as: UTF8.self)), status >= 100
        else {
            throw Malformed(reason: "not an HTTP/1.x status line")
        }
        return (version, status)
    }

    /// A chunk-size line's size (hexadecimal, extensions after `;` ignored).
    private static func chunkSize(_ line: [UInt8]) throws(Malformed) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), size >= 0 else {
            throw Malformed(reason: "a chunk size that is not a hexadecimal number below 2^60")
        }
        return size
    }

    /// Only ASCII digits, at most 18 of them (so no overflow); nil otherwise.
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
