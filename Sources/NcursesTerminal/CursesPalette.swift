import CanvasUI
import CNcursesw

/// Maps styles to curses attributes and colour pairs, fitting colours to what the terminal has.
struct CursesPalette {
    /// 0 when colours are off (no colour support or `NO_COLOR`).
    let colors: Int
    private var pairs: [Int32: Int32] = [:]

    init(colors: Int) {
        self.colors = colors
    }

    mutating func curses(_ style: Style) -> (attr_t, Int32) {
        var attributes = style.attributes
        var pair: Int32 = 0
        if colors > 0 {
            let fg = number(style.foreground, boldenBright: &attributes)
            var unused = TextAttributes()
            let bg = number(style.background, boldenBright: &unused)
            let key = (fg + 1) << 16 | (bg + 1)
            if let known = pairs[key] {
                pair = known
            } else {
                pair = tc_pair(fg, bg)
                pairs[key] = pair
            }
        }
        let a = attributes
        return (tc_attributes(a.contains(.bold) ? 1 : 0, a.contains(.dim) ? 1 : 0, a.contains(.italic) ? 1 : 0,
                              a.contains(.underline) ? 1 : 0, a.contains(.reverse) ? 1 : 0), pair)
    }

    /// The curses colour number; on 8-colour terminals bright colours become bold.
    private func number(_ color: Color, boldenBright attributes: inout TextAttributes) -> Int32 {
        switch colors >= 256 ? color : color.ansi16 {
        case .default: return -1
        case .palette(let n): return Int32(n)
        case .ansi(let n) where colors >= 16: return Int32(n)
        case .ansi(let n):
            if n >= 8 { attributes.insert(.bold) }
            return Int32(n % 8)
        }
    }
}
