import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: a terminal too small for the layout")
struct HostTooSmallTests {
    @Test func at10x4TheScreenStillShowsTheSizeItNeeds() throws {
        let host = try makeHost(halves, size: Size(width: 10, height: 4))
        let frame = host.compose()
        #expect(frame.lines == [" Terminal ", "too small ", "  10×4,   ", "needs 20×5"])
        #expect(frame[1, 0].style == host.theme[.error])
        #expect(frame[0, 3].style == host.theme[.text])
    }

    @Test func at19x5OneColumnIsMissing() throws {
        let host = try makeHost(halves, size: Size(width: 19, height: 5))
        #expect(host.screen == [
            "Terminal too small ",
            " 19×5, needs 20×5  ",
            "Enlarge it or press",
            "         q         ",
            "                   ",
        ])
    }

    @Test func theNeededSizeFollowsTheLayout() throws {
        // A pane 2 grid units wide needs 8 cells: 2/12 of the width, so 48 columns;
        // 2 units high needs 3 rows: 2/12 of the height less the status bar, so 19 rows.
        let host = try makeHost([pane(1, .probe, 0, 0, 2, 2), pane(2, .probe, 2, 0, 10, 12)], size: Size(width: 47, height: 19))
        #expect(host.screen.contains { $0.contains("47×19, needs 48×19") })
        host.input(.resize(Size(width: 48, height: 19)))
        let screen = host.screen
        #expect(!screen.contains { $0.contains("too small") })
        #expect(screen[0].hasPrefix("┏━ 1 P…┓┌─ 2 Probe ─"))
    }

    @Test func atTheNeededSizeThePanesShow() throws {
        let host = try makeHost(halves, size: Size(width: 20, height: 5))
        #expect(host.screen == [
            "┏━ 1 Pro…┓┌─ 2 Pro…┐",
            "┃Probe bo┃│Probe bo│",
            "┃colour r┃│colour r│",
            "┗━━━━━━━━┛└────────┘",
            " NORMAL        test ",
        ])
    }

    @Test func qStillQuitsOnTheTooSmallScreen() throws {
        let host = try makeHost(halves, size: Size(width: 10, height: 4))
        host.press(.char("q"))
        #expect(host.shouldQuit)
    }
}
