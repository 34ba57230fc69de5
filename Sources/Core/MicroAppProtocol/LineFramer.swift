/// Splits a byte stream into lines of at most `limit` bytes, holding at most that much.
///
/// A line longer than the limit is dropped whole (reported once, as `.tooLong`, when its end
/// arrives), so whatever a peer writes, the reader's memory stays bounded.
public struct LineFramer: Sendable {
    public enum Item: Equatable, Sendable {
        /// One line without its `\n` (and without a `\r` before it).
        case line([UInt8])
        /// A line past the limit was dropped; `bytes` is how long it was.
        case tooLong(bytes: Int)
    }

    /// 256 KiB: a full view of a large pane with room to spare.
    public static let standardLimit = 256 * 1024

    public let limit: Int
    /// Bytes dropped so far in all (of lines over the limit, their ends included): what an app
    /// flooding one endless line is measured by.
    public private(set) var droppedInAll = 0
    private var pending: [UInt8] = []
    /// Bytes of the current line dropped so far, when it is over the limit.
    private var dropped = 0

    public init(limit: Int = standardLimit) {
        self.limit = limit
    }

    /// Feeds bytes as they arrive; returns the lines they complete.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Item] {
        var items: [Item] = []
        var rest = bytes[...]
        while let newline = rest.firstIndex(of: 0x0A) {
            let part = rest[..<newline]
            if dropped > 0 || pending.count + part.count > limit {
                droppedInAll += (dropped > 0 ? 0 : pending.count) + part.count + 1
                items.append(.tooLong(bytes: dropped + pending.count + part.count))
            } else {
                var line = pending
                line.append(contentsOf: part)
                if line.last == 0x0D { line.removeLast() }
                items.append(.line(line))
            }
            pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
            dropped = 0
            rest = rest[rest.index(after: newline)...]
        }
        if dropped > 0 {
            dropped += rest.count
            droppedInAll += rest.count
        } else if pending.count + rest.count > limit {
            dropped = pending.count + rest.count
            droppedInAll += dropped
            pending = []
        } else {
            pending.append(contentsOf: rest)
        }
        return items
    }

    /// Bytes held for an unfinished line.
    public var bufferedCount: Int { pending.count }
}
