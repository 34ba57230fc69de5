internal import CNcursesw
import CanvasStyle
import CanvasUI

/// Maps styles to curses attributes and colour pairs, fitting colours to what the terminal has.
struct CursesPalette {
    /// Curses colour numbers of a foreground and background; -1 is the terminal's default.
    struct ColorNumbers: Hashable {
        var foreground: Int32
        var background: Int32
    }

    /// A style as the terminal can show it.
    struct Fitted: Equatable {
        var attributes: TextAttributes
        /// nil when colours are off: the cell uses pair 0.
        var colors: ColorNumbers?
    }

    /// 0 when colours are off (no colour support or `NO_COLOR`).
    let colors: Int
    private var pairs: [ColorNumbers: Int32] = [:]

    init(colors: Int) {
        self.colors = colors
    }

    /// The attributes and colour pair for `style`; pairs are allocated once and remembered.
    mutating func curses(_ style: Style) -> (attr_t, Int32) {
        let fitted = Self.fit(style, colors: colors)
        var pair: Int32 = 0
        if let numbers = fitted.colors {
            if let known = pairs[numbers] {
                pair = known
            } else {
                pair = tc_pair(numbers.foreground, numbers.background)
                pairs[numbers] = pair
            }
        }
        let a = fitted.attributes
        return (tc_attributes(a.contains(.bold) ? 1 : 0, a.contains(.dim) ? 1 : 0, a.contains(.italic) ? 1 : 0,
                              a.contains(.underline) ? 1 : 0, a.contains(.reverse) ? 1 : 0), pair)
    }

    /// Fits `style` to a terminal with `colors` colours (0 when colours are off).
    ///
    /// 256 colours and more take palette numbers as they are; 16 colours take the nearest ANSI
    /// colour; 8 colours show a bright foreground as bold with the base colour.
    static func fit(_ style: Style, colors: Int) -> Fitted {
        guard colors > 0 else { return Fitted(attributes: style.attributes, colors: nil) }
        let foreground = number(style.foreground, colors: colors)
        let background = number(style.background, colors: colors)
        var attributes = style.attributes
        if foreground.bright { attributes.insert(.bold) }
        return Fitted(attributes: attributes, colors: ColorNumbers(foreground: foreground.number, background: background.number))
    }

    /// The curses colour number of `color`, and whether it was a bright colour that an
    /// 8-colour terminal can only show as its base colour.
    static func number(_ color: Color, colors: Int) -> (number: Int32, bright: Bool) {
        switch colors >= 256 ? color : color.ansi16 {
        case .default: (-1, false)
        case .palette(let n): (Int32(n), false)
        case .ansi(let n) where colors >= 16: (Int32(n), false)
        case .ansi(let n): (Int32(n % 8), n >= 8)
        }
    }
}
