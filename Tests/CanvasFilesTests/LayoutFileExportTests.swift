import CanvasCore
@testable import CanvasFiles
import Foundation
import Testing

@Suite("Writing layout files")
struct LayoutFileExportTests {
    /// Text that YAML would read as something else, or not at all, if written plainly.
    static let tricky = [
        "", " ", "  leading spaces", "trailing spaces  ", "say \"hi\"", "it's", "back\\slash", "a: b", "key:value", ":",
        "yes", "no", "true", "off", "null", "~", "123", "-7", "1.5", "0x1F", "1e3", ".inf", "2025-03-14",
        "#hash", "a #b", "- dash", "-", "? q", "[list]", "{map}", "&anchor", "*alias", "!tag", "%directive", "@at", "`tick`",
        "|", ">", "---", "...", "line1\nline2", "tab\there", "bell\u{7}", "Zürich 日本語 👩‍👩‍👧 ✓", "\u{00A0}nbsp",
        String(repeating: "long ", count: 40),
    ]

    static var trickyLayout: LayoutData {
        var config: WidgetValues = [:]
        var state: WidgetValues = [:]
        for (index, value) in tricky.enumerated() {
            config["k\(index)"] = value
            // The same strings as keys.
            state[value] = "v\(index)"
        }
        return LayoutData(
            name: "Plan: \"A\" #1 – yes ✓",
            grid: GridSpec(columns: 20, rows: 7, minimumPaneSize: Size(width: 1, height: 3)),
            panes: [
                Pane(id: 3, app: .calendar, frame: Rect(x: 0, y: 0, width: 10, height: 7), config: config, state: state),
                Pane(id: 11, app: "weather: v2", frame: Rect(x: 10, y: 0, width: 1, height: 3)),
                Pane(id: 12, app: "yes", frame: Rect(x: 10, y: 3, width: 10, height: 4), config: ["only": "one"]),
            ],
            focused: 12
        )
    }

    @Test func exportThenParseGivesAnIdenticalLayout() throws {
        let layout = Self.trickyLayout
        let exported = try LayoutFile.export(layout)
        let parsed = try LayoutFile.parse(exported, file: "export.yaml")
        #expect(parsed == layout)
        // Field by field, so a mismatch says which string did not survive.
        for (key, value) in layout.panes[0].config { #expect(parsed.panes[0].config[key] == value, "config \(key)") }
        for (key, value) in layout.panes[0].state { #expect(parsed.panes[0].state[key] == value, "state key \(key.debugDescription)") }
        #expect(parsed.name == layout.name)
        #expect(parsed.panes.map(\.app) == [.calendar, "weather: v2", "yes"])
    }

    @Test(arguments: tricky)
    func everyTrickyStringSurvivesAsNameValueAndKey(_ value: String) throws {
        // Names follow the store's rules (1–64 characters, no surrounding spaces); values are free.
        let validName = !value.isEmpty && value.count <= 64 && value.trimmingCharacters(in: .whitespaces) == value
        let layout = LayoutData(name: validName ? value : "tricky", panes: [
            Pane(id: 1, app: value.isEmpty ? "app" : AppKind(value), frame: Rect(x: 0, y: 0, width: 12, height: 12),
                 config: ["value": value], state: [value: value]),
        ], focused: 1)
        let parsed = try LayoutFile.parse(try LayoutFile.export(layout), file: "value.yaml")
        #expect(parsed == layout)
    }

    @Test func exportIsStable() throws {
        let once = try LayoutFile.export(Self.trickyLayout)
        let twice = try LayoutFile.export(try LayoutFile.parse(once, file: "once.yaml"))
        #expect(once == twice)
        #expect(once.hasPrefix("# TermCanvas layout\n"))
    }

    @Test func exportOfTheFullExampleReadsBackEqual() throws {
        let layout = try LayoutFile.parse(LayoutFileParseTests.full, file: "planner.yaml")
        #expect(try LayoutFile.parse(try LayoutFile.export(layout), file: "planner.yaml") == layout)
    }

    @Test func anEmptyLayoutRoundTrips() throws {
        let layout = LayoutData(name: "empty", grid: GridSpec(columns: 64, rows: 1, minimumPaneSize: Size(width: 1, height: 1)))
        #expect(try LayoutFile.parse(try LayoutFile.export(layout), file: "empty.yaml") == layout)
    }

    @Test func theExportedTextIsTheDocumentedFormat() throws {
        let layout = LayoutData(name: "small", panes: [
            Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 12, height: 12), config: ["weekStart": "monday"]),
        ], focused: 1)
        let exported = try LayoutFile.export(layout)
        #expect(exported == """
            # TermCanvas layout
            name: "small"
            grid:
              columns: 12
              rows: 12
              minWidth: 2
              minHeight: 2
            focused: 1
            panes:
            - id: 1
              app: calendar
              x: 0
              y: 0
              width: 12
              height: 12
              config:
                weekStart: "monday"

            """)
    }
}
