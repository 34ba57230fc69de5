import CanvasCore
import TestSupport
import CanvasUI
import Foundation
import MicroAppProtocol
import Testing
import Widgets

/// Views as a hostile app would write them — numbers at the edges of JSON in every numeric field,
/// negative and huge sizes, deep nesting, empty and oversized arrays, wrong types — go through
/// decode and draw at random pane sizes. A trap here would end the whole dashboard (and, with the
/// pane saved in the layout, every later start), so the property is that nothing traps, and that
/// every number the renderer gets is in its range or its node is refused.
@MainActor
@Suite("Hostile views: decoded and drawn without a trap")
struct HostileViewPropertyTests {
    /// Numbers that break naive arithmetic: extremes, their negatives, the smallest double,
    /// integers past Int and past 2^53, fractions where whole numbers are expected, and the edges of
    /// the host's own limits.
    static let edgeNumbers: [Double] = [
        1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0, 0, 1, -1, 0.5, 1.5,
        9.2e18, -9.2e18, 9_007_199_254_740_994, 8.9e15, -8.9e15, 1e300, -1e300, 1.0000001e300, 10_000, 10_001, 1_000, 1_001,
        20_000, 20_001, -2, 2_147_483_648, 4_294_967_296, 1e15, 1e16,
    ]

    static func number(_ random: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0...9, using: &random) {
        case 0: .string("12")
        case 1: .null
        case 2: .number(Double.random(in: -1e6...1e6, using: &random))
        default: .number(edgeNumbers.randomElement(using: &random)!)
        }
    }

    /// An array of `element`s: empty, a handful, thousands (when `huge`, which nested arrays are
    /// not: the view's budget cuts them anyway), or not an array at all.
    static func array(_ random: inout SplitMix64, huge: Bool = true, _ element: (inout SplitMix64) -> JSONValue) -> JSONValue {
        switch Int.random(in: 0...9, using: &random) {
        case 0: return .array([])
        case 1 where huge: return .array((0..<Int.random(in: 500...3_000, using: &random)).map { _ in element(&random) })
        case 2: return .string("not an array")
        default: return .array((0..<Int.random(in: 1...12, using: &random)).map { _ in element(&random) })
        }
    }

    static func text(_ random: inout SplitMix64) -> JSONValue {
        .string(String(repeating: "x", count: Int.random(in: 0...40, using: &random)))
    }

    static func node(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let types = ["text", "list", "table", "kv", "gauge", "sparkline", "input", "stack", "lines", "chart", ""]
        let type = types.randomElement(using: &random)!
        var object: [String: JSONValue] = ["type": .string(type), "size": number(&random), "grow": number(&random)]
        switch type {
        case "list":
            object["items"] = array(&random, text)
            object["selected"] = number(&random)
        case "table":
            object["columns"] = array(&random) { random in
                .object(["title": text(&random), "width": number(&random), "align": .string("right")])
            }
            object["rows"] = array(&random) { random in array(&random, huge: false) { random in number(&random) } }
            object["selected"] = number(&random)
        case "kv":
            object["items"] = array(&random) { random in .array([text(&random), number(&random)]) }
        case "gauge":
            object["value"] = number(&random)
            object["label"] = text(&random)
        case "sparkline":
            object["values"] = array(&random, number)
            object["min"] = number(&random)
            object["max"] = number(&random)
        case "stack":
            // Now and then far deeper than the host follows.
            let deep = depth < 40 && Int.random(in: 0...3, using: &random) == 0
            object["direction"] = .string(Bool.random(using: &random) ? "rows" : "columns")
            object["children"] = depth > 6 && !deep
                ? .array([])
                : .array((0..<Int.random(in: 0...(deep ? 1 : 5), using: &random)).map { _ in node(&random, depth: depth + 1) })
        case "lines":
            object["lines"] = array(&random) { random in array(&random, huge: false, text) }
        default:
            object["text"] = text(&random)
        }
        return .object(object)
    }

    /// Every number the renderer will use lies in its range, or its node was refused.
    static func numbersInRange(_ node: ViewNode) -> Bool {
        let limits = ViewNode.Limits.self
        func plotted(_ value: Double?) -> Bool { value.map { $0.isFinite && abs($0) <= limits.magnitude } ?? true }
        func selected(_ value: Int?) -> Bool { value.map(limits.selected.contains) ?? true }
        switch node {
        case .list(_, let row): return selected(row)
        case .table(let columns, _, let row):
            return selected(row) && columns.allSatisfy { $0.width.map(limits.extent.contains) ?? true }
        case .gauge(_, let value, _, _): return (0...1).contains(value)
        case .sparkline(_, let values, let low, let high): return values.allSatisfy(plotted) && plotted(low) && plotted(high)
        case .stack(_, let children):
            return children.allSatisfy { child in
                (child.size.map(limits.extent.contains) ?? true) && limits.grow.contains(child.grow) && numbersInRange(child.node)
            }
        default: return true
        }
    }

    @Test(arguments: [1, 2, 3, 0x5EED] as [UInt64])
    func hostileViewsNeverTrap(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var refused = 0
        for round in 0..<200 {
            var update: [String: JSONValue] = ["root": Self.node(&random)]
            if Int.random(in: 0...4, using: &random) == 0 { update["revision"] = Self.number(&random) }
            // Through the same bytes an app writes, as the host reads them.
            let line = try JSONEncoder().encode(JSONValue.object(["jsonrpc": .string("2.0"), "method": .string("view"),
                                                                  "params": .object(update)]))
            guard case .view(let view) = try MicroAppCodec.decode([UInt8](line)) else {
                Issue.record("seed \(seed), round \(round): not read as a view")
                continue
            }
            #expect(Self.numbersInRange(view.root), "seed \(seed), round \(round): \(view.root)")
            refused += view.root.refusals.count
            let size = Size(width: Int.random(in: 1...240, using: &random), height: Int.random(in: 1...70, using: &random))
            _ = render(try appWidget(showing: view.root), size: size)
        }
        // The generator means something only if it really makes refusals.
        #expect(refused > 30, "seed \(seed): only \(refused) refused nodes")
    }

    @Test func theSparklineThatEndedTheDashboardSaysWhyItIsNotShown() throws {
        let line = #"{"jsonrpc":"2.0","method":"view","params":{"root":{"type":"sparkline","values":[1e308,-1e308]}}}"#
        guard case .view(let view) = try MicroAppCodec.decode(Array(line.utf8)) else {
            Issue.record("not read as a view")
            return
        }
        #expect(view.root == .refused(type: "sparkline", reason: "values[0] is 1e+308, beyond ±1e300"))
        let lines = try drawn(view.root, 40, 2)
        #expect(lines == ["⚠ sparkline not shown: values[0] is     ", "1e+308, beyond ±1e300                   "], "\(lines)")
        // Values the host can scale are drawn, however far apart.
        #expect(try drawn(.sparkline(label: "", values: [1e300, -1e300, 0], min: nil, max: nil), 3, 1) == ["█▁▅"])
    }
}
