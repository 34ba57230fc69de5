import CanvasCore
import TestSupport
import CanvasUI
import MicroAppProtocol
import Testing
import Widgets

@MainActor
@Suite("No control character from an app reaches the cell buffer")
struct SanitiserPropertyTests {
    /// Scalars a hostile app would send: C0, C1, DEL, ESC sequences, bidi overrides, combining
    /// marks, wide characters and plain text, in any order.
    static let alphabet: [Unicode.Scalar] = (0x00...0x20).map { Unicode.Scalar($0)! } + [
        "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}", "\u{202E}", "\u{2066}", "\u{2028}", "\u{200D}", "\u{0301}",
        "\u{FE0F}", "日", "😀", "a", "[", "]", "0", ";", "m",
    ]

    static func hostileText(_ random: inout SplitMix64) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...24, using: &random) { text.append(alphabet.randomElement(using: &random)!) }
        return String(text)
    }

    static func hostileNode(_ random: inout SplitMix64, depth: Int = 0) -> ViewNode {
        func text() -> String { hostileText(&random) }
        switch Int.random(in: 0...8, using: &random) {
        case 0: return .text(text(), role: text(), wrap: Bool.random(using: &random))
        case 1: return .list(items: [.init(text()), .init(text(), role: text())], selected: 0)
        case 2: return .table(columns: [.init(text()), .init(text(), alignRight: true)], rows: [[text(), text()]], selected: 0)
        case 3: return .keyValues([.init(text(), text())])
        case 4: return .gauge(label: text(), value: 0.5, text: text(), role: text())
        case 5: return .sparkline(label: text(), values: [1, 2], min: nil, max: nil)
        case 6: return .input(id: "i", value: text(), placeholder: text(), label: text())
        case 7 where depth < 3:
            return .stack(direction: Bool.random(using: &random) ? .rows : .columns,
                          children: [.init(hostileNode(&random, depth: depth + 1)), .init(hostileNode(&random, depth: depth + 1))])
        default: return .lines([[.init(text(), role: text()), .init(text())]])
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func noControlCharacterReachesACell(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let node = Self.hostileNode(&random)
            let buffer = render(try appWidget(showing: node), size: Size(width: Int.random(in: 1...30, using: &random),
                                                                        height: Int.random(in: 1...6, using: &random)))
            for cell in buffer.cells {
                #expect(!cell.symbol.unicodeScalars.contains(where: Self.isControl), "cell \(cell.symbol.unicodeScalars.map { $0.value })")
            }
        }
    }
}
