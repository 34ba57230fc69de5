/// Reads an entry's `text/event-stream` bytes and gives back the data of each event: one
/// micro-app protocol line, and that a comment came (an entry's keep-alive, which the proxy passes
/// on as its own). `event:`, `id:` and `retry:` fields are dropped (the proxy numbers the events
/// itself); an event whose data passes `limit` bytes is dropped whole, as a
/// process app's over-long line is, so an entry cannot make the server hold more than that.
struct EntryEventFramer {
    /// The protocol's line limit.
    static let standardLimit = 256 * 1024

    enum Item: Equatable {
        case data(String)
        case tooLong(bytes: Int)
        /// A comment line (`: …`); its text is dropped.
        case comment
    }

    let limit: Int
    private var line: [UInt8] = []
    private var lineTooLong = false
    private var data: [UInt8] = []
    private var hasData = false
    private var eventTooLong = 0
    private var afterCR = false

    init(limit: Int = Self.standardLimit) {
        self.limit = limit
    }

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let item = endLine() { items.append(item) }
            default:
                if line.count < limit + 8 { line.append(byte) } else { lineTooLong = true }
            }
        }
        return items
    }

    private mutating func endLine() -> Item? {
        defer {
            line.removeAll(keepingCapacity: true)
            lineTooLong = false
        }
        if line.isEmpty && !lineTooLong { return dispatch() }
        if line.first == UInt8(ascii: ":") { return .comment }
        guard line.starts(with: Array("data".utf8)) else { return nil }
        var value = line.dropFirst(4)
        guard value.isEmpty || value.first == UInt8(ascii: ":") else { return nil }
        value = value.dropFirst()
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        if hasData { data.append(0x0A) }
        hasData = true
        if lineTooLong || data.count + value.count > limit {
            eventTooLong += value.count + (lineTooLong ? 1 : 0)
            data.removeAll(keepingCapacity: true)
        } else if eventTooLong == 0 {
            data.append(contentsOf: value)
        }
        return nil
    }

    private mutating func dispatch() -> Item? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventTooLong = 0
        }
        guard hasData else { return nil }
        if eventTooLong > 0 { return .tooLong(bytes: eventTooLong + data.count) }
        return .data(String(decoding: data, as: UTF8.self))
    }
}
