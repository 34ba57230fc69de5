/// A QR code (ISO/IEC 18004) of some bytes, byte mode, error correction level M, the smallest of
/// versions 1 to 10 it fits (213 bytes at most: a sign-in address, not a document), with the mask
/// of least penalty. Modules are `true` when dark. After Project Nayuki's QR Code generator (MIT).
public struct QRCode: Sendable, Equatable {
    /// Modules on a side: 21 for version 1, 4 more for each version after.
    public let size: Int
    public let version: Int
    public private(set) var mask: Int
    private var modules: [Bool]
    private var isFunction: [Bool]

    /// The code of `text`'s UTF-8 bytes; nil when they do not fit version 10.
    public init?(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// The code of `bytes`, with `mask` (0 to 7) instead of the one of least penalty when given.
    public init?(bytes: [UInt8], mask forcedMask: Int? = nil) {
        guard let version = (1...10).first(where: { Self.dataCodewords($0) * 8 >= 4 + Self.countBits($0) + 8 * bytes.count }) else { return nil }
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        isFunction = modules
        mask = 0
        drawFunctionPatterns()
        drawCodewords(Self.interleaved(Self.dataCodewords(bytes, version: version), version: version))
        let chosen = forcedMask ?? (0..<8).min { penalty(masked: $0) < penalty(masked: $1) } ?? 0
        applyMask(chosen)
        drawFormatBits(chosen)
        mask = chosen
    }

    public subscript(x: Int, y: Int) -> Bool {
        (0..<size).contains(x) && (0..<size).contains(y) && modules[y * size + x]
    }

    // MARK: Data

    /// The data's codewords: mode 0100 (bytes), the count, the bytes, a terminator, then padding.
    private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> i) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version))
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCodewords(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var pad: UInt8 = 0xEC
        while bits.count < capacity {
            append(Int(pad), 8)
            pad ^= 0xEC ^ 0x11
        }
        return stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }

    /// The blocks with their error correction codewords, interleaved (ISO 18004 §7.6).
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let blockCount = blocks[version]
        let eccLength = eccPerBlock[version]
        let raw = rawDataModules(version) / 8
        let shortBlocks = blockCount - raw % blockCount
        let shortLength = raw / blockCount
        let divisor = ReedSolomon.divisor(degree: eccLength)
        var made: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength - eccLength + (index < shortBlocks ? 0 : 1)
            var block = Array(data[start..<start + length])
            start += length
            let ecc = ReedSolomon.remainder(block, divisor: divisor)
            if index < shortBlocks { block.append(0) }
            made.append(block + ecc)
        }
        var result: [UInt8] = []
        for i in 0..<made[0].count {
            for (j, block) in made.enumerated() where i != shortLength - eccLength || j >= shortBlocks {
                result.append(block[i])
            }
        }
        return result
    }

    private static func countBits(_ version: Int) -> Int { version < 10 ? 8 : 16 }

    private static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    private static func dataCodewords(_ version: Int) -> Int {
        rawDataModules(version) / 8 - eccPerBlock[version] * blocks[version]
    }

    /// Level M's error correction codewords per block, and blocks, by version (index 0 unused).
    private static let eccPerBlock = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
    private static let blocks = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]

    // MARK: Drawing

    private mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let corner = (i == 0 && j == 0) || (i == 0 && j == positions.count - 1) || (i == positions.count - 1 && j == 0)
                guard !corner else { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(0)
        drawVersion()
    }

    private var alignmentPositions: [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        return [6] + (1..<count).map { size - 7 - (count - 1 - $0) * step }
    }

    /// Level M (00) and the mask, BCH-coded, twice around the finders; and the dark module.
    private mutating func drawFormatBits(_ mask: Int) {
        let data = 0b00 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// The version, BCH-coded, beside two finders (versions 7 and up).
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
            let dark = (bits >> i) & 1 == 1
            let (a, b) = (size - 11 + i % 3, i / 3)
            set(a, b, dark)
            set(b, a, dark)
        }
    }

    /// The codewords in the zigzag of two-module columns, right to left, skipping function modules.
    private mutating func drawCodewords(_ data: [UInt8]) {
        var i = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !isFunction[y * size + x], i < data.count * 8 {
                        modules[y * size + x] = (data[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// Flips the data modules where `mask`'s condition holds; applying it twice undoes it.
    private mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let flip = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (x / 3 + y / 2) % 2 == 0
                case 5: x * y % 2 + x * y % 3 == 0
                case 6: (x * y % 2 + x * y % 3) % 2 == 0
                default: ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { modules[y * size + x].toggle() }
            }
        }
    }

    /// The penalty of the code with `mask` (ISO 18004 §7.8.3), leaving the code as it was.
    private func penalty(masked mask: Int) -> Int {
        var code = self
        code.applyMask(mask)
        code.drawFormatBits(mask)
        return code.penalty
    }

    private var penalty: Int {
        var result = 0
        for line in 0..<size {
            result += linePenalty { self[$0, line] }
            result += linePenalty { self[line, $0] }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 where self[x, y] == self[x + 1, y] && self[x, y] == self[x, y + 1] && self[x, y] == self[x + 1, y + 1] {
                result += 3
            }
        }
        let dark = modules.count(where: { $0 })
        let total = size * size
        result += ((abs(dark * 20 - total * 10) + total - 1) / total - 1) * 10
        return result
    }

    /// Runs of five or more of a colour, and finder-like 1:1:3:1:1 patterns with light beside them.
    private func linePenalty(_ module: (Int) -> Bool) -> Int {
        var result = 0
        var color = false
        var run = 0
        var history = [Int](repeating: 0, count: 7)
        func addHistory(_ length: Int) {
            history.insert(history[0] == 0 ? length + size : length, at: 0)
            history.removeLast()
        }
        func finderPatterns() -> Int {
            let n = history[1]
            let core = n > 0 && history[2] == n && history[3] == n * 3 && history[4] == n && history[5] == n
            return (core && history[0] >= n * 4 && history[6] >= n ? 1 : 0) + (core && history[6] >= n * 4 && history[0] >= n ? 1 : 0)
        }
        for i in 0..<size {
            if module(i) == color {
                run += 1
                if run == 5 { result += 3 } else if run > 5 { result += 1 }
            } else {
                addHistory(run)
                if !color { result += finderPatterns() * 40 }
                color = module(i)
                run = 1
            }
        }
        if color {
            addHistory(run)
            run = 0
        }
        addHistory(run + size)
        return result + finderPatterns() * 40
    }
}

/// Reed–Solomon error correction over GF(2⁸) with the polynomial 0x11D.
enum ReedSolomon {
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree - 1) + [1]
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in result.indices {
                result[j] = multiply(result[j], root)
                if j + 1 < result.count { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in result.indices { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }

    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for i in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(i)) & 1) * Int(x)
        }
        return UInt8(z & 0xFF)
    }
}
