/// A QR code as terminal lines: two rows of modules per line in half blocks, dark on light
/// whatever the terminal's colours (black on white, set on each line and reset at its end), with
/// the quiet zone of four modules around it that readers need.
public enum QRText {
    public static func lines(_ code: QRCode, quietZone: Int = 4) -> [String] {
        let range = -quietZone..<(code.size + quietZone)
        return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { y in
            let cells = range.map { x -> Character in
                switch (code[x, y], code[x, y + 1]) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
            }
            return "\u{1B}[30;47m" + String(cells) + "\u{1B}[0m"
        }
    }
}
