/// A terminfo capability whose parameters are written as decimal numbers between fixed bytes,
/// as every ECMA-48 terminal's moves are (`\e[%i%p1%d;%p2%dH`): filled in by appending digits,
/// where terminfo's interpreter (`tiparm`) would run for every move the frame writer weighs.
/// Made only when it writes what the interpreter writes for a range of values.
struct DecimalTemplate: Equatable {
    /// The bytes around the numbers: one more than there are parameters.
    let pieces: [[UInt8]]
    /// Added to every parameter: 1 where the capability counts from 1 (`%i`).
    let offset: Int

    /// The template `expand` follows for `parameters` (1 or 2) parameters; nil when it follows
    /// none (another notation, a conditional, a padding).
    init?(parameters: Int, expanding expand: (Int32, Int32) -> [UInt8]?) {
        guard (1...2).contains(parameters) else { return nil }
        let probes: [Int32] = [7_531, 8_642]
        guard let sample = expand(probes[0], probes[1]) else { return nil }
        let found = (0...1).lazy.compactMap { offset in
            Self.split(sample, around: probes.prefix(parameters).map { Array(String(Int($0) + offset).utf8) }).map { ($0, offset) }
        }.first
        guard let (pieces, offset) = found else { return nil }
        self.pieces = pieces
        self.offset = offset
        let checks: [(Int32, Int32)] = [(0, 0), (1, 2), (9, 10), (99, 100), (123, 4_567), (1_999, 0), (65_535, 8)]
        guard checks.allSatisfy({ fill($0.0, $0.1) == expand($0.0, $0.1) }) else { return nil }
    }

    /// The capability with these parameters (the second is ignored by a one-parameter template).
    func fill(_ first: Int32, _ second: Int32 = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pieces.reduce(24) { $0 + $1.count })
        bytes += pieces[0]
        Self.appendDecimal(Int(first) + offset, to: &bytes)
        bytes += pieces[1]
        if pieces.count > 2 {
            Self.appendDecimal(Int(second) + offset, to: &bytes)
            bytes += pieces[2]
        }
        return bytes
    }

    /// `value`'s decimal digits, as `%d` writes them.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// `sample` cut around each of `numbers` in turn, or nil when one is not there.
    private static func split(_ sample: [UInt8], around numbers: [[UInt8]]) -> [[UInt8]]? {
        var pieces: [[UInt8]] = []
        var rest = sample[...]
        for number in numbers {
            guard let start = rest.indices.first(where: { rest[$0...].starts(with: number) }) else { return nil }
            pieces.append(Array(rest[..<start]))
            rest = rest[(start + number.count)...]
        }
        return pieces + [Array(rest)]
    }
}
