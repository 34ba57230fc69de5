import Foundation
import MicroAppProtocol

/// What a `sample:` app shows for its command's output: pure, so each kind is tested as a value.
struct SampleView {
    let show: AppManifest.Sample.Show
    /// The sparkline's values, oldest first.
    private(set) var history: [Double] = []
    static let historyLength = 120

    init(show: AppManifest.Sample.Show) {
        self.show = show
    }

    /// Takes one run's output and how it ended (nil: it exited 0), and returns the view to draw.
    mutating func update(output: String, problem: String?) -> ViewNode {
        let lines = output.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let firstLine = String(lines.first ?? "")
        let number = Self.firstNumber(in: firstLine)
        var node: ViewNode
        switch show {
        case .text:
            node = .text(String(output.reversed().drop { $0 == "\n" }.reversed()), role: nil, wrap: false)
        case .gauge:
            if let (value, rest) = number {
                let percent = min(100, max(0, value))
                node = .gauge(label: rest, value: percent / 100, text: Self.format(value) + "%",
                              role: percent >= 90 ? "error" : percent >= 75 ? "warning" : nil)
            } else {
                node = .text("no number in the output", role: "warning", wrap: true)
            }
        case .sparkline:
            if let (value, rest) = number {
                history.append(value)
                if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
                node = .sparkline(label: rest.isEmpty ? Self.format(value) : "\(rest) \(Self.format(value))", values: history,
                                  min: nil, max: nil)
            } else {
                node = .text("no number in the output", role: "warning", wrap: true)
            }
        }
        guard let problem else { return node }
        return .stack(direction: .rows, children: [ViewNode.StackChild(node), ViewNode.StackChild(.text(problem, role: "warning", wrap: false), size: 1, grow: 0)])
    }

    /// The first number in `line` and the line without it, trimmed.
    static func firstNumber(in line: String) -> (Double, String)? {
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            let startsNumber = characters[index].isASCII && characters[index].isNumber
                || characters[index] == "-" && index + 1 < characters.count && characters[index + 1].isASCII && characters[index + 1].isNumber
            guard startsNumber else {
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end].isASCII, characters[end].isNumber || characters[end] == "." { end += 1 }
            guard let value = Double(String(characters[index..<end])), value.isFinite else { return nil }
            var after = characters[end...]
            if after.first == "%" { after = after.dropFirst() }
            return (value, (String(characters[..<index]) + String(after)).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.1f", value)
    }
}
