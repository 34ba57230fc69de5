import FoundationEssentials
import MicroAppProtocol
import PlainText

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
        let node = show == .text
            ? .text(String(output.reversed().drop { $0 == "\n" }.reversed()), role: nil, wrap: false)
            : plot(String(output.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""))
        guard let problem else { return node }
        return .stack(direction: .rows, children: [ViewNode.StackChild(node), ViewNode.StackChild(.text(problem, role: "warning", wrap: false), size: 1, grow: 0)])
    }

    /// A gauge or the sparkline of the first number of the output's first line.
    private mutating func plot(_ firstLine: String) -> ViewNode {
        guard let (value, rest) = Self.firstNumber(in: firstLine) else {
            return .text("no number in the output", role: "warning", wrap: true)
        }
        guard abs(value) <= ViewNode.Limits.magnitude else {
            return .text("\(Self.format(value)) is beyond ±1e300", role: "warning", wrap: true)
        }
        if show == .gauge {
            let percent = min(100, max(0, value))
            return .gauge(label: rest, value: percent / 100, text: Self.format(value) + "%",
                          role: percent >= 90 ? "error" : percent >= 75 ? "warning" : nil)
        }
        history.append(value)
        if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
        return .sparkline(label: rest.isEmpty ? Self.format(value) : "\(rest) \(Self.format(value))", values: history, min: nil, max: nil)
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
            // An exponent belongs to the number (`1e308` is not 1 followed by text).
            if end < characters.count, characters[end] == "e" || characters[end] == "E" {
                var digits = end + 1
                if digits < characters.count, characters[digits] == "+" || characters[digits] == "-" { digits += 1 }
                var last = digits
                while last < characters.count, characters[last].isASCII, characters[last].isNumber { last += 1 }
                if last > digits { end = last }
            }
            guard let value = Double(String(characters[index..<end])), value.isFinite else { return nil }
            var after = characters[end...]
            if after.first == "%" { after = after.dropFirst() }
            return (value, (String(characters[..<index]) + String(after)).trimmingWhitespace())
        }
        return nil
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return abs(value) < 1e15 ? "\((value * 10).rounded() / 10)" : "\(value)"  // one decimal
    }
}
