import CanvasCore
import CanvasUI
import Testing

/// Issue 55, item 3: a key and a palette entry show the focused pane alone over the whole
/// canvas and back, as tmux's prefix z does; going to another pane ends it.
@MainActor
@Suite("Zoom: the focused pane alone, and back")
struct ZoomTests {
    func palette(_ host: CanvasHost) -> [String] {
        (host.overlay as? PaletteOverlay)?.items(host.overlayContext).map(\.title) ?? []
    }

    @Test func altZShowsTheFocusedPaneAloneAndBack() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 1, size: Size(width: 60, height: 20), recorder: recorder)
        #expect(recorder.sizes[1] == Size(width: 28, height: 17))
        host.press(.alt(.char("z")))
        #expect(recorder.sizes[1] == Size(width: 58, height: 17), "the whole canvas but the border and the status bar")
        #expect(host.screen[0].hasPrefix("┏━ 1 Probe · zoomed, Alt+z back ━"), "\(host.screen[0])")
        #expect(!host.screen.contains { $0.contains("2 Probe") }, "the other pane is not drawn")
        host.press(.alt(.char("z")))
        #expect(recorder.sizes[1] == Size(width: 28, height: 17))
        #expect(host.screen[0].contains("2 Probe"))
    }

    @Test func anotherPaneOrArrangingEndsIt() throws {
        let host = try makeHost(halves, focused: 1)
        host.press(.alt(.char("z")))
        host.press(.tab)
        #expect(host.screen[0].contains("1 Probe") && host.screen[0].contains("2 Probe") && !host.screen[0].contains("zoomed"))
        host.press(.alt(.char("z")))
        host.press(.ctrl("e"))
        #expect(host.screen[0].contains("1 Probe") && !host.screen[0].contains("zoomed"))
        host.press(.escape)
        #expect(!host.screen[0].contains("zoomed"), "back to normal mode, not to the zoom")
    }

    @Test func thePaletteFindsZoomAndClose() throws {
        let host = try makeHost(halves, size: Size(width: 100, height: 40))
        host.press(.ctrl("p"))
        for character in "zoom" { host.press(.char(character)) }
        #expect(palette(host).first?.hasPrefix("Zoom: the focused pane alone") == true, "\(palette(host).prefix(3))")
        host.press(.escape)
        host.press(.escape)
        host.press(.ctrl("p"))
        for character in "close" { host.press(.char(character)) }
        #expect(palette(host).first?.hasPrefix("Remove (close) the focused pane") == true, "\(palette(host).prefix(3))")
    }
}
