import CanvasCore
@testable import CanvasFiles
import Testing

@Suite("Reading layout files")
struct LayoutFileParseTests {
    static let full = """
        # A layout written by hand.
        name: planner
        grid:
          columns: 16
          rows: 10
          minWidth: 3
          minHeight: 2
        focused: 2
        panes:
          - id: 1
            app: calendar
            x: 0
            y: 0
            width: 8
            height: 10
            config:
              weekStart: monday
              title: "Plan: \\"week\\" #1"
            state:
              selected: 2025-03-14
              count: 12
              flag: yes
          - { id: 2, app: eventlog, x: 8, y: 0, width: 8, height: 5, config: { filter: "calendar.*" } }
          - id: 9
            app: weather
            x: 8
            y: 5
            width: 8
            height: 5
            config: { city: Zürich, empty: "", nothing: }

        """

    @Test func aFullExampleGivesTheExpectedLayout() throws {
        let layout = try LayoutFile.parse(Self.full, file: "planner.yaml")
        let expected = LayoutData(
            name: "planner",
            grid: GridSpec(columns: 16, rows: 10, minimumPaneSize: Size(width: 3, height: 2)),
            panes: [
                Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 8, height: 10),
                     config: ["weekStart": "monday", "title": "Plan: \"week\" #1"],
                     // Values stay text exactly as written: no dates, numbers or booleans.
                     state: ["selected": "2025-03-14", "count": "12", "flag": "yes"]),
                Pane(id: 2, app: .eventLog, frame: Rect(x: 8, y: 0, width: 8, height: 5), config: ["filter": "calendar.*"]),
                Pane(id: 9, app: "weather", frame: Rect(x: 8, y: 5, width: 8, height: 5),
                     config: ["city": "Zürich", "empty": "", "nothing": ""]),
            ],
            focused: 2
        )
        #expect(layout == expected)
    }

    @Test(arguments: ["\"\"", "\" padded\"", "\"trailing \""])
    func aNameMustBePrintableWithoutSurroundingSpaces(_ name: String) throws {
        #expect(throws: FileError(file: "n.yaml", line: 1, column: 7, field: "name",
                                  message: "expected 1 to 64 characters without spaces at either end")) {
            try LayoutFile.parse("name: \(name)\npanes: []\n", file: "n.yaml")
        }
    }

    @Test func gridAndFocusAreOptional() throws {
        let layout = try LayoutFile.parse("""
            name: small
            panes:
              - { id: 4, app: calendar, x: 0, y: 0, width: 12, height: 6 }
              - { id: 3, app: eventlog, x: 0, y: 6, width: 12, height: 6 }
            """, file: "small.yaml")
        #expect(layout.grid == .standard)
        // Without `focused` none is named (the canvas then focuses the first pane), so export
        // and parse round-trip exactly.
        #expect(layout.focused == nil)
        #expect(layout.panes.map(\.id) == [4, 3])
        #expect(layout.panes.allSatisfy { $0.config.isEmpty && $0.state.isEmpty })
    }

    @Test func aPartialGridKeepsTheOtherDefaults() throws {
        let layout = try LayoutFile.parse("""
            name: wide
            grid: { columns: 24 }
            panes: []
            """, file: "wide.yaml")
        #expect(layout.grid == GridSpec(columns: 24, rows: 12, minimumPaneSize: Size(width: 2, height: 2)))
        #expect(layout.panes.isEmpty)
        #expect(layout.focused == nil)
    }

    @Test func unknownAppKindsAreKeptAndWrittenBackUnchanged() throws {
        let source = """
            name: weather
            panes:
              - { id: 1, app: weather, x: 0, y: 0, width: 6, height: 12, config: { city: Oslo } }
              - { id: 2, app: calendar, x: 6, y: 0, width: 6, height: 12 }
            """
        let layout = try LayoutFile.parse(source, file: "weather.yaml")
        #expect(layout.panes.map(\.app) == ["weather", .calendar])
        let exported = try LayoutFile.export(layout)
        #expect(exported.contains("app: weather"))
        #expect(try LayoutFile.parse(exported, file: "weather.yaml") == layout)
    }

    @Test func panesMayBeWrittenInAnyOrderOfKeys() throws {
        let layout = try LayoutFile.parse("""
            panes:
              - height: 12
                width: 12
                y: 0
                x: 0
                app: calendar
                id: 5
            focused: 5
            name: reordered
            """, file: "reordered.yaml")
        #expect(layout == LayoutData(name: "reordered", panes: [Pane(id: 5, app: .calendar, frame: Rect(x: 0, y: 0, width: 12, height: 12))], focused: 5))
    }
}
