import CanvasStyle

/// What the terminal draws the next character with: attributes and colour numbers as fitted to
/// the terminal (`CursesPalette.fit`); -1 is the terminal's default colour.
struct Pen: Equatable {
    var attributes: TextAttributes
    var foreground: Int32
    var background: Int32

    static let plain = Pen(attributes: [], foreground: -1, background: -1)

    init(attributes: TextAttributes, foreground: Int32, background: Int32) {
        self.attributes = attributes
        self.foreground = foreground
        self.background = background
    }

    init(_ fitted: CursesPalette.Fitted) {
        self.init(attributes: fitted.attributes, foreground: fitted.colors?.foreground ?? -1,
                  background: fitted.colors?.background ?? -1)
    }

    /// The ECMA-48 select-graphic-rendition sequence that takes the terminal from `old` (nil when
    /// not known) to this pen, or nil when they are the same.
    ///
    /// Of turning off only what changed (22 bold and dim, 23, 24, 27, 39, 49) and resetting
    /// everything (0) then setting what this pen has, the shorter is written: a run that drops
    /// one attribute costs a few bytes, not a reset and the whole style again.
    func sequence(from old: Pen?) -> [UInt8]? {
        guard old != self else { return nil }
        var best = resetParameters()
        if let old {
            let changed = changeParameters(from: old)
            if changed.count < best.count { best = changed }
        }
        return Array("\u{1B}[".utf8) + best + [UInt8(ascii: "m")]
    }

    /// "0;…" with every attribute and colour of this pen; empty for the plain pen (`ESC [ m`).
    private func resetParameters() -> [UInt8] {
        var parameters = Parameters()
        if self != .plain { parameters.add(0) }
        parameters.add(attributes: attributes)
        if foreground != -1 { parameters.add(color: foreground, base: 30) }
        if background != -1 { parameters.add(color: background, base: 40) }
        return parameters.bytes
    }

    private func changeParameters(from old: Pen) -> [UInt8] {
        var parameters = Parameters()
        let off = old.attributes.subtracting(attributes)
        var on = attributes.subtracting(old.attributes)
        let intensity: TextAttributes = [.bold, .dim]
        if !off.isDisjoint(with: intensity) {
            parameters.add(22)  // ends bold and dim together: what stays is set again
            on.formUnion(attributes.intersection(intensity))
        }
        if off.contains(.italic) { parameters.add(23) }
        if off.contains(.underline) { parameters.add(24) }
        if off.contains(.reverse) { parameters.add(27) }
        parameters.add(attributes: on)
        if foreground != old.foreground { parameters.add(color: foreground, base: 30) }
        if background != old.background { parameters.add(color: background, base: 40) }
        return parameters.bytes
    }

    /// SGR parameters joined by ';'.
    private struct Parameters {
        var bytes: [UInt8] = []

        mutating func add(_ number: Int32) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ";")) }
            bytes += Array(String(number).utf8)
        }

        mutating func add(attributes: TextAttributes) {
            let codes: [(TextAttributes, Int32)] = [(.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7)]
            for (attribute, code) in codes where attributes.contains(attribute) { add(code) }
        }

        /// 39 or 49 for the default colour, 30–37 or 40–47 for the first eight, 90–97 or 100–107
        /// for the bright eight, else 38;5;N or 48;5;N: the forms xterm's terminfo `setaf` and
        /// `setab` use, which `Terminfo.speaksECMA48` checks the terminal's own against.
        mutating func add(color: Int32, base: Int32) {
            switch color {
            case ..<0: add(base + 9)
            case 0..<8: add(base + color)
            case 8..<16: add(base + 60 + color - 8)
            default:
                add(base + 8)
                add(5)
                add(color)
            }
        }
    }
}
