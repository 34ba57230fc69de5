import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: a pane of an unknown kind")
struct HostUnknownAppTests {
    static let unknown = pane(1, AppKind("xyz"), 0, 0, 6, 12, config: ["colour": "mauve"], state: ["cursor": "3"])

    @Test func itSaysWhatIsMissingAndKeepsThePane() throws {
        let host = try makeHost([Self.unknown, pane(2, .probe, 6, 0, 6, 12)], focused: 1)
        let frame = host.compose()
        let screen = frame.lines
        #expect(screen[0].hasPrefix("┏━ 1 Unavailable: xyz ━"))
        #expect(screen[1] == "┃" + padded("Unavailable micro-app 'xyz'", 28) + "┃│" + padded("Probe body", 28) + "│")
        #expect(screen[2].hasPrefix("┃Not installed on this machin┃"))
        #expect(screen[3].hasPrefix("┃termcanvas apps add FOLDER i┃"))
        #expect(frame[1, 1].style == host.theme[.warning])

        host.press(.char("k"), .tab)
        #expect(host.manager.focusedPaneID == 2)
        #expect(host.currentLayout().panes[0] == Self.unknown)
    }

    @Test func itSurvivesBeingMovedAndUndone() throws {
        let host = try makeHost([pane(1, AppKind("xyz"), 0, 0, 4, 12, config: ["k": "v"]), pane(2, .probe, 6, 0, 6, 12)], focused: 1)
        host.press(.ctrl("e"), .right, .char("u"), .right)
        let saved = host.currentLayout().panes[0]
        #expect(saved.app == AppKind("xyz"))
        #expect(saved.frame == Rect(x: 1, y: 0, width: 4, height: 12))
        #expect(saved.config == ["k": "v"])
        #expect(host.screen[1].hasPrefix("     ┃Unavailable micro-┃"))
    }
}
