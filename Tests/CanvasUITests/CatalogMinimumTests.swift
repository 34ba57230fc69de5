import CanvasCore
import CanvasUI
import Testing

/// A widget with a minimum inside (a micro-app's `minSize`) added from the `a` catalog gets at
/// least it, or the user is told why it cannot be placed.
@MainActor
@Suite("Canvas host: the catalog honours a widget's minimum size")
struct CatalogMinimumTests {
    static func host(_ panes: [Pane], size: Size) throws -> CanvasHost {
        let recorder = Recorder()
        let wide = WidgetDescriptor(kind: "wide", name: "Wide", summary: "Needs room", version: "1.0.0",
                                    minimumSize: Size(width: 50, height: 10)) { config, _ in
            ProbeWidget(title: "Wide", recorder: recorder, config: config)
        }
        let host = try CanvasHost(layout: LayoutData(name: "test", panes: panes, focused: 1),
                                  catalog: WidgetCatalog([wide] + WidgetCatalog.probes(recorder).descriptors),
                                  bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock, theme: .dark, logger: Fixed.logger, size: size)
        host.start()
        return host
    }

    func addWide(_ host: CanvasHost) {
        host.press(.ctrl("e"), .char("a"), .enter)
    }

    @Test func itIsPlacedWithAtLeastItsMinimumInside() throws {
        let host = try Self.host(halves, size: Size(width: 160, height: 31))
        addWide(host)
        let added = try #require(host.manager.panes.first { $0.app == "wide" })
        let inside = host.state.cellRect(of: added).inset(by: 1)
        #expect(inside.width >= 50 && inside.height >= 10, "\(inside)")
    }

    @Test func withoutRoomItSaysWhyAndAddsNothing() throws {
        let quarters = [pane(1, .probe, 0, 0, 6, 6), pane(2, .probe, 6, 0, 6, 6), pane(3, .probe, 0, 6, 6, 6), pane(4, .probe, 6, 6, 6, 6)]
        let host = try Self.host(quarters, size: Size(width: 100, height: 31))
        addWide(host)
        #expect(host.manager.panes.count == 4)
        #expect(host.notice?.text == "Can't add Wide: no room for its minimum of 50×10 cells; shrink or remove a pane, or enlarge the terminal")

        let small = try Self.host(halves, size: Size(width: 40, height: 31))
        addWide(small)
        #expect(small.manager.panes.count == 2)
        #expect(small.notice?.text == "Can't add Wide: it needs at least 50×10 cells inside its pane, more than the terminal has; enlarge it")
    }
}
