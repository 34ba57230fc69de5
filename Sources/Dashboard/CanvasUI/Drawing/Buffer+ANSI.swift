import CanvasCore
import CanvasStyle

extension Buffer {
    /// The buffer as lines with ANSI SGR colour codes, for `render --ansi`.
    /// - Parameter colors16: downsample palette colours to the 16 ANSI colours.
    public func ansiLines(colors16: Bool = false) -> [String] {
        (0..<size.height).map { y in
            var line = ""
            var current: Style?
            for x in 0..<size.width where !self[x, y].isContinuation {
                let cell = self[x, y]
                if cell.style != current {
                    line += Self.sgr(cell.style, colors16: colors16)
                    current = cell.style
                }
                line += cell.symbol
            }
            return line + "\u{1B}[0m"
        }
    }

    static func sgr(_ style: Style, colors16: Bool) -> String {
        var codes = ["0"]
        let attributes: [(TextAttributes, String)] = [(.bold, "1"), (.dim, "2"), (.italic, "3"), (.underline, "4"), (.reverse, "7")]
        codes += attributes.filter { style.attributes.contains($0.0) }.map(\.1)
        func color(_ color: Color, base: Int) -> String? {
            switch colors16 ? color.ansi16 : color {
            case .default: nil
            case .ansi(let n): n < 8 ? "\(base + Int(n))" : "\(base + 60 + Int(n) - 8)"
            case .palette(let n): "\(base + 8);5;\(n)"
            }
        }
        codes += [color(style.foreground, base: 30), color(style.background, base: 40)].compactMap { $0 }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
