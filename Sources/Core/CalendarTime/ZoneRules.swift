/// A time zone's offsets from UTC over time, read from the tz database's compiled form (TZif,
/// RFC 8536, the files of `/usr/share/zoneinfo`): its transitions, and after the last the rule of
/// its footer (`CET-1CEST,M3.5.0,M10.5.0/3`). No ICU: the system's database is the source.
public struct ZoneRules: Hashable, Sendable {
    /// The moments (seconds since 1970 UTC) at which the offset changes, ascending, with the
    /// offset (seconds east of UTC) from each on.
    let transitions: [Int64]
    let offsets: [Int]
    /// The offset before the first transition.
    let initialOffset: Int
    /// What comes after the last transition; nil when the last offset stays.
    let footer: PosixZoneRule?

    /// A zone that is always `offset` seconds east of UTC.
    public init(fixed offset: Int) {
        transitions = []
        offsets = []
        initialOffset = offset
        footer = nil
    }

    /// A zone of the changes given (each a UTC moment and the offset from it on), `initialOffset`
    /// before the first: as a calendar's own `VTIMEZONE` defines one. Changes at the same moment
    /// keep the last given.
    public init(changes: [(utc: Int64, offset: Int)], initialOffset: Int) {
        var moments: [Int64] = [], offsets: [Int] = []
        for change in changes.sorted(by: { $0.utc < $1.utc }) {
            if moments.last == change.utc { offsets[offsets.count - 1] = change.offset; continue }
            moments.append(change.utc)
            offsets.append(change.offset)
        }
        self.init(transitions: moments, offsets: offsets, initialOffset: initialOffset, footer: nil)
    }

    init(transitions: [Int64], offsets: [Int], initialOffset: Int, footer: PosixZoneRule?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// Seconds east of UTC at the UTC moment `seconds` (since 1970).
    public func offset(atUTC seconds: Int64) -> Int {
        if let last = transitions.last, seconds >= last, let footer {
            return footer.offset(atUTC: seconds)
        }
        if transitions.isEmpty, let footer { return footer.offset(atUTC: seconds) }
        // The last transition at or before `seconds`.
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The UTC moment of the wall-clock time `local` in this zone. A time the clocks skipped
    /// (02:30 when they go from 02:00 to 03:00) is read with the offset before the change, so it
    /// lands an hour later; a time they passed twice is its first (RFC 5545 section 3.3.5).
    public func utc(of local: LocalDateTime) -> Int64 {
        let wall = local.secondsSinceEpoch
        // The offset in force a day before and a day after bound any change near this time.
        let before = offset(atUTC: wall - 86_400)
        let after = offset(atUTC: wall + 86_400)
        let candidates = before == after ? [before] : [before, after]
        for candidate in candidates where offset(atUTC: wall - Int64(candidate)) == candidate {
            return wall - Int64(candidate)
        }
        // In a gap: the offset before it.
        return wall - Int64(before)
    }

    /// The wall-clock time in this zone at the UTC moment `seconds`.
    public func local(ofUTC seconds: Int64) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: seconds + Int64(offset(atUTC: seconds)))
    }
}

/// A TZif file that cannot be read.
public struct ZoneFileError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

extension ZoneRules {
    /// Reads a TZif file (version 1 to 4): the 64-bit data when there is some, and the footer.
    public init(tzif bytes: [UInt8]) throws(ZoneFileError) {
        var reader = ByteReader(bytes: bytes)
        let (version, counts) = try Self.header(&reader)
        guard version >= 2 else {
            let (transitions, types, offsets) = try Self.body(&reader, counts, timeSize: 4)
            self.init(transitions: transitions, types: types, offsets: offsets, footer: nil)
            return
        }
        try reader.skip(Self.bodySize(counts, timeSize: 4))
        let (_, counts64) = try Self.header(&reader)
        let (transitions, types, offsets) = try Self.body(&reader, counts64, timeSize: 8)
        var footer: PosixZoneRule?
        if reader.remaining > 1, try reader.byte() == UInt8(ascii: "\n") {
            let text = reader.rest.prefix { $0 != UInt8(ascii: "\n") }
            footer = PosixZoneRule(String(decoding: text, as: UTF8.self))
        }
        self.init(transitions: transitions, types: types, offsets: offsets, footer: footer)
    }

    private init(transitions: [Int64], types: [Int], offsets: [(offset: Int, isDaylight: Bool)], footer: PosixZoneRule?) {
        // Before the first transition: the first standard-time type, as RFC 8536 says.
        let initial = offsets.first { !$0.isDaylight }?.offset ?? offsets.first?.offset ?? 0
        self.init(transitions: transitions, offsets: types.map { offsets[$0].offset }, initialOffset: initial, footer: footer)
    }

    private struct Counts {
        let utIndicators, standardIndicators, leaps, transitions, types, characters: Int
    }

    private static func header(_ reader: inout ByteReader) throws(ZoneFileError) -> (Int, Counts) {
        guard try reader.take(4) == Array("TZif".utf8) else { throw ZoneFileError(description: "not a TZif file") }
        let versionByte = try reader.byte()
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        try reader.skip(15)
        var values: [Int] = []
        for _ in 0..<6 {
            let value = try reader.integer(4)
            guard (0...1_000_000).contains(value) else { throw ZoneFileError(description: "a count past any real zone's") }
            values.append(Int(value))
        }
        return (version, Counts(utIndicators: values[0], standardIndicators: values[1], leaps: values[2], transitions: values[3], types: values[4],
                                characters: values[5]))
    }

    private static func bodySize(_ counts: Counts, timeSize: Int) -> Int {
        counts.transitions * (timeSize + 1) + counts.types * 6 + counts.characters + counts.leaps * (timeSize + 4)
            + counts.standardIndicators + counts.utIndicators
    }

    private static func body(_ reader: inout ByteReader, _ counts: Counts, timeSize: Int)
        throws(ZoneFileError) -> ([Int64], [Int], [(offset: Int, isDaylight: Bool)]) {
        guard counts.types > 0 else { throw ZoneFileError(description: "a zone with no offsets") }
        var transitions: [Int64] = []
        for _ in 0..<counts.transitions { transitions.append(try reader.integer(timeSize)) }
        var types: [Int] = []
        for _ in 0..<counts.transitions {
            let type = Int(try reader.byte())
            guard type < counts.types else { throw ZoneFileError(description: "a transition to an offset the file does not have") }
            types.append(type)
        }
        var offsets: [(offset: Int, isDaylight: Bool)] = []
        for _ in 0..<counts.types {
            let offset = try reader.integer(4)
            let isDaylight = try reader.byte() != 0
            _ = try reader.byte()  // the abbreviation's index
            guard abs(offset) < 26 * 3600 else { throw ZoneFileError(description: "an offset past a day") }
            offsets.append((Int(offset), isDaylight))
        }
        try reader.skip(counts.characters + counts.leaps * (timeSize + 4) + counts.standardIndicators + counts.utIndicators)
        guard zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw ZoneFileError(description: "transitions out of order")
        }
        return (transitions, types, offsets)
    }
}

/// Reads big-endian integers and bytes, throwing rather than reading past the end.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    var remaining: Int { bytes.count - position }
    var rest: ArraySlice<UInt8> { bytes[position...] }

    mutating func take(_ count: Int) throws(ZoneFileError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw ZoneFileError(description: "the file ends early") }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func skip(_ count: Int) throws(ZoneFileError) { _ = try take(count) }

    mutating func byte() throws(ZoneFileError) -> UInt8 { try take(1)[0] }

    /// A signed big-endian integer of `size` bytes (4 or 8).
    mutating func integer(_ size: Int) throws(ZoneFileError) -> Int64 {
        let raw = try take(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return size == 8 ? Int64(bitPattern: raw) : Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: raw)))
    }
}

extension ZoneRules {
    /// Whether `name` can name a zone of the tz database (`Europe/Paris`, `Etc/GMT+5`): letters,
    /// digits, `_`, `+`, `-` in parts joined by `/`, no part `.` or `..`, so it stays a path
    /// inside the database's folder.
    public static func isZoneName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return (1...4).contains(parts.count) && name.utf8.count <= 64 && parts.allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || "_+-".unicodeScalars.contains($0)
            }
        }
    }
}
