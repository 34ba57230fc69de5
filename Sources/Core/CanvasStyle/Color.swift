/// A terminal colour: the terminal's default, one of the 16 ANSI colours, or the 256-colour palette.
public enum Color: Hashable, Sendable {
    case `default`
    /// 0–15: black, red, green, yellow, blue, magenta, cyan, white, then their bright forms.
    case ansi(UInt8)
    /// 0–255 of the xterm palette.
    case palette(UInt8)

    /// The 256-colour palette's nearest to `#RRGGBB` (of its colour cube and greys), or nil when
    /// `hex` is not of that form.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        let isHex = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) }
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"), digits.dropFirst().allSatisfy(isHex),
              let value = Int(String(decoding: digits.dropFirst(), as: UTF8.self), radix: 16) else { return nil }
        let rgb = (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
        let nearest = (16...255).min { a, b in Self.distance(Self.rgb(ofPaletteIndex: a), rgb) < Self.distance(Self.rgb(ofPaletteIndex: b), rgb) }!
        self = .palette(UInt8(nearest))
    }

    /// The nearest colour a 16-colour terminal can show (by distance in RGB).
    public var ansi16: Color {
        guard case .palette(let index) = self else { return self }
        if index < 16 { return .ansi(index) }
        let rgb = Self.rgb(ofPaletteIndex: Int(index))
        let nearest = Self.ansiRGB.indices.min { a, b in
            Self.distance(Self.ansiRGB[a], rgb) < Self.distance(Self.ansiRGB[b], rgb)
        }!
        return .ansi(UInt8(nearest))
    }

    /// xterm's default RGB values of the 16 ANSI colours.
    private static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB value of a 256-palette index from 16 up: the 6×6×6 cube, then 24 greys.
    private static func rgb(ofPaletteIndex index: Int) -> (Int, Int, Int) {
        if index >= 232 {
            let grey = 8 + (index - 232) * 10
            return (grey, grey, grey)
        }
        let cube = index - 16
        func level(_ step: Int) -> Int { step == 0 ? 0 : 55 + step * 40 }
        return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}
