/// An incremental parser of `text/event-stream` (the WHATWG HTML "server-sent events" format).
///
/// Feed it bytes exactly as they arrive, split anywhere (mid-line, between CR and LF, inside a
/// UTF-8 sequence): it splits lines at the byte level (CR LF, LF or a lone CR) and decodes each
/// whole line as UTF-8, so a split never corrupts text. Per line:
/// - `:` first: a comment (keep-alive), ignored;
/// - `field: value` (one space after the colon dropped), or `field` alone with an empty value;
/// - `data` lines accumulate, joined with `\n`; `event` names the event (default `message`);
///   `id` sets the last event id (kept for later events, ignored when it contains NUL);
///   `retry` with only ASCII digits sets the reconnection delay; other fields are ignored;
/// - a blank line dispatches the event, unless no `data` came (then only the name resets).
/// A leading byte order mark is dropped; an event not ended by a blank line when the stream ends
/// is discarded (`feed` never sees it dispatched).
///
/// Pure and value-typed: one per connection; it holds at most one partial line and one event,
/// together at most `maxEventBytes`: past that, `feed` throws and the caller drops the
/// connection, so a hostile server's endless line cannot grow the dashboard's memory.
public struct ServerSentEventParser: Sendable {
    /// An event or line longer than the parser keeps.
    public struct TooLarge: Error, Equatable, CustomStringConvertible {
        public let limit: Int
        public init(limit: Int) { self.limit = limit }
        public var description: String { "an event of the stream is larger than \(limit) bytes" }
    }

    /// The default bound of one event (its lines, the partial one included): events of the
    /// micro-app server are a record each, far below it.
    public static let defaultMaxEventBytes = 1 << 20

    /// A dispatched event.
    public struct Event: Sendable, Equatable {
        /// The last event id at dispatch: this event's `id`, or the latest earlier one; nil if none yet.
        public var id: String?
        /// The `event` field, or `message` when it had none.
        public var name: String
        /// The `data` lines joined with `\n`.
        public var data: String

        public init(id: String?, name: String, data: String) {
            self.id = id
            self.name = name
            self.data = data
        }
    }

    /// What a chunk produced.
    public enum Output: Sendable, Equatable {
        case event(Event)
        /// A `retry:` field: the server's reconnection delay in milliseconds.
        case retry(milliseconds: Int)
    }

    private var line: [UInt8] = []
    /// The previous chunk ended in CR: an LF opening this one belongs to that line end.
    private var afterCR = false
    private var atStreamStart = true
    private var eventName = ""
    private var data = ""
    private var hasData = false
    /// Bytes held for the current event: its data so far and its other fields' lines.
    private var heldBytes = 0
    public let maxEventBytes: Int
    /// The last event id seen (`id:`), kept across events as the format specifies.
    public private(set) var lastEventID: String?

    /// - Parameter lastEventID: The id events inherit until the stream sends one.
    ///   - maxEventBytes: The most bytes one event (and the line being read) may take.
    public init(lastEventID: String? = nil, maxEventBytes: Int = defaultMaxEventBytes) {
        self.lastEventID = lastEventID
        self.maxEventBytes = maxEventBytes
    }

    /// Parses the next bytes of the stream; returns the events and retry values they completed.
    /// - Throws: `TooLarge` when the current event or line outgrows `maxEventBytes`; the parser
    ///   is of no further use (the connection should be dropped).
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(TooLarge) -> [Output] {
        var outputs: [Output] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                endLine(into: &outputs)
            case 0x0A:
                endLine(into: &outputs)
            default:
                guard heldBytes + line.count < maxEventBytes else { throw TooLarge(limit: maxEventBytes) }
                line.append(byte)
            }
        }
        return outputs
    }

    private mutating func endLine(into outputs: inout [Output]) {
        defer { line.removeAll(keepingCapacity: true) }
        if atStreamStart {
            atStreamStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else {
            dispatch(into: &outputs)
            return
        }
        if line[0] == UInt8(ascii: ":") { return }
        heldBytes += line.count
        let field: String
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = []
        }
        switch field {
        case "event":
            eventName = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
                outputs.append(.retry(milliseconds: milliseconds))
            }
        default:
            break
        }
    }

    private mutating func dispatch(into outputs: inout [Output]) {
        defer {
            eventName = ""
            data = ""
            hasData = false
            heldBytes = 0
        }
        guard hasData else { return }
        outputs.append(.event(Event(id: lastEventID, name: eventName.isEmpty ? "message" : eventName, data: data)))
    }
}
