internal import CNcursesw
import CanvasCore
import PlainText

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's description as terminfo gives it (for the terminal curses set up, or one
/// read by `tc_use_terminfo`): its cursor movements and what the frame writer must know.
struct Terminfo: CursorMoves {
    /// Capabilities with parameters, as their templates; nil where the terminal has none or one
    /// that needs padding (a delay the writer does not make).
    private let cup: Parameterised
    private let hpa, vpa, cuf, cub, cuu, cud, ech: Parameterised?
    private let cuf1, cub1, cuu1, cr: [UInt8]?
    let showCursor, hideCursor: [UInt8]?
    /// Writing the last column leaves the cursor there (`xenl`) rather than on the next row, or
    /// the terminal does not wrap at all: the bottom-right cell can be written without scrolling.
    let writesBottomRight: Bool
    /// Erased cells take the background colour in use (`bce`), not the terminal's default.
    let erasesWithBackground: Bool

    /// The current terminal's, when it can be driven by the frame writer: it addresses the cursor
    /// and speaks ECMA-48's select graphic rendition for `colors` colours (nil otherwise: the
    /// terminal is then left to curses).
    init?(colors: Int) {
        guard let cup = Parameterised("cup", parameters: 2) else { return nil }
        self.cup = cup
        hpa = Parameterised("hpa", parameters: 1)
        vpa = Parameterised("vpa", parameters: 1)
        cuf = Parameterised("cuf", parameters: 1)
        cub = Parameterised("cub", parameters: 1)
        cuu = Parameterised("cuu", parameters: 1)
        cud = Parameterised("cud", parameters: 1)
        ech = Parameterised("ech", parameters: 1)
        cuf1 = Self.constant("cuf1")
        cub1 = Self.constant("cub1")
        cuu1 = Self.constant("cuu1")
        cr = Self.constant("cr")
        showCursor = Self.constant("cnorm")
        hideCursor = Self.constant("civis")
        writesBottomRight = tc_flag_capability("xenl") != 0 || tc_flag_capability("am") == 0
        erasesWithBackground = tc_flag_capability("bce") != 0
        guard Self.speaksECMA48(colors: colors) else { return nil }
    }

    /// Whether the terminal's own attribute and colour strings are the ECMA-48 ones `Pen`
    /// writes (xterm and its kin, tmux, screen, the Linux console, …).
    private static func speaksECMA48(colors: Int) -> Bool {
        func has(_ name: String, _ expected: String) -> Bool {
            constant(name).map { $0 == Array(expected.utf8) } ?? true
        }
        // sgr0 may also choose the first character set (`ESC ( B`, `^O`): frames use no other.
        let resets = ["", "\u{1B}(B"].flatMap { prefix in
            ["\u{1B}[m", "\u{1B}[0m"].flatMap { reset in ["", "\u{0F}"].map { prefix + reset + $0 } }
        }
        guard let reset = constant("sgr0"), resets.contains(where: { Array($0.utf8) == reset }) else { return false }
        guard has("bold", "\u{1B}[1m"), has("dim", "\u{1B}[2m"), has("sitm", "\u{1B}[3m"), has("smul", "\u{1B}[4m"),
              has("rev", "\u{1B}[7m") else { return false }
        guard colors > 0 else { return true }
        guard let setaf = template("setaf"), let setab = template("setab") else { return false }
        let samples: [Int32] = [1] + (colors >= 16 ? [9] : []) + (colors >= 256 ? [200] : [])
        return samples.allSatisfy { color in
            let foreground = Pen(attributes: [], foreground: color, background: -1).sequence(from: .plain)
            let background = Pen(attributes: [], foreground: -1, background: color).sequence(from: .plain)
            return expand(setaf, color) == foreground && expand(setab, color) == background
        }
    }

    func address(_ point: Point) -> [UInt8] { cup.expand(Int32(clamping: point.y), Int32(clamping: point.x)) ?? [] }
    func column(_ column: Int) -> [UInt8]? { hpa?.expand(Int32(clamping: column)) }
    func row(_ row: Int) -> [UInt8]? { vpa?.expand(Int32(clamping: row)) }
    func right(_ count: Int) -> [UInt8]? { steps(count, cuf, cuf1) }
    func left(_ count: Int) -> [UInt8]? { steps(count, cub, cub1) }
    func up(_ count: Int) -> [UInt8]? { steps(count, cuu, cuu1) }
    func down(_ count: Int) -> [UInt8]? { steps(count, cud, nil) }
    var carriageReturn: [UInt8]? { cr }
    func erase(_ count: Int) -> [UInt8]? { ech?.expand(Int32(clamping: count)) }

    /// `count` cells by the parameterised move or the single step repeated, whichever is shorter.
    /// (`cud1` is not used: it is a line feed, which the tty may turn into two characters.)
    private func steps(_ count: Int, _ parameterised: Parameterised?, _ single: [UInt8]?) -> [UInt8]? {
        let byParameter = parameterised?.expand(Int32(clamping: count))
        guard let single, single.count * count <= (byParameter?.count ?? .max) else { return byParameter }
        return Array([[UInt8]](repeating: single, count: count).joined())
    }

    private static func template(_ name: String) -> [CChar]? {
        guard let value = tc_string_capability(name) else { return nil }
        guard !String(cString: value).utf8Contains("$<") else { return nil }
        return Array(UnsafeBufferPointer(start: value, count: strlen(value) + 1))
    }

    /// A capability with parameters: its template, and the same as digits between fixed bytes
    /// where it is that simple (`DecimalTemplate`).
    private struct Parameterised {
        let template: [CChar]
        let decimal: DecimalTemplate?

        init?(_ name: String, parameters: Int) {
            guard let template = Terminfo.template(name) else { return nil }
            self.template = template
            decimal = DecimalTemplate(parameters: parameters) { Terminfo.expand(template, $0, $1) }
        }

        func expand(_ first: Int32, _ second: Int32 = 0) -> [UInt8]? {
            decimal?.fill(first, second) ?? Terminfo.expand(template, first, second)
        }
    }

    private static func constant(_ name: String) -> [UInt8]? {
        template(name).map { Array($0.dropLast().map { UInt8(bitPattern: $0) }) }
    }

    private static func expand(_ template: [CChar], _ first: Int32, _ second: Int32 = 0) -> [UInt8]? {
        template.withUnsafeBufferPointer { pointer -> [UInt8]? in
            guard let result = tc_expand(pointer.baseAddress, first, second) else { return nil }
            return Array(UnsafeBufferPointer(start: result, count: strlen(result)).map { UInt8(bitPattern: $0) })
        }
    }
}
