/// What one cell draws, in the form `DrawnCluster` gives: a base scalar and up to four marks,
/// packed five scalars of 21 bits into 128 bits.
///
/// A plain value without a heap object, so a frame of cells copies, compares and is freed as
/// memory, with no reference count per cell. The empty glyph is the right half of a wide character.
public struct Glyph: Hashable, Sendable {
    /// Scalars 0–2 at bits 0, 21 and 42.
    private var low: UInt64 = 0
    /// Scalars 3–4 at bits 0 and 21.
    private var high: UInt64 = 0

    static let capacity = DrawnCluster.maxScalars
    private static let mask: UInt64 = 0x1F_FFFF

    /// The empty glyph.
    public init() {}

    /// The first `capacity` scalars of `scalars`; U+0000 ends it (nothing stores a NUL in a cell).
    public init(_ scalars: some Sequence<Unicode.Scalar>) {
        for scalar in scalars where !append(scalar) { break }
    }

    public init(_ symbol: String) {
        self.init(symbol.unicodeScalars)
    }

    /// One scalar.
    public init(_ scalar: Unicode.Scalar) {
        low = UInt64(scalar.value)
    }

    public static let empty = Glyph()
    public static let space = Glyph(" ")

    public var isEmpty: Bool { low == 0 }

    /// The base scalar; nil for the empty glyph.
    public var base: Unicode.Scalar? { self[0] }

    /// How many scalars it holds.
    public var count: Int {
        var count = 0
        while count < Self.capacity, self[count] != nil { count += 1 }
        return count
    }

    public var string: String {
        var text = String.UnicodeScalarView()
        for index in 0..<Self.capacity {
            guard let scalar = self[index] else { break }
            text.append(scalar)
        }
        return String(text)
    }

    /// Calls `body` with each scalar's value, in order, without allocating.
    public func forEachValue(_ body: (UInt32) -> Void) {
        for index in 0..<Self.capacity {
            let value = rawValue(at: index)
            guard value != 0 else { return }
            body(value)
        }
    }

    /// Adds a scalar after the others; false when it is full or `scalar` is U+0000.
    @discardableResult
    public mutating func append(_ scalar: Unicode.Scalar) -> Bool {
        let index = count
        guard index < Self.capacity, scalar.value != 0 else { return false }
        let value = UInt64(scalar.value)
        if index < 3 { low |= value << (21 * UInt64(index)) } else { high |= value << (21 * UInt64(index - 3)) }
        return true
    }

    private subscript(index: Int) -> Unicode.Scalar? {
        let value = rawValue(at: index)
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    private func rawValue(at index: Int) -> UInt32 {
        let word = index < 3 ? low : high
        return UInt32(truncatingIfNeeded: (word >> (21 * UInt64(index % 3))) & Self.mask)
    }
}
