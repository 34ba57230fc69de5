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
        // Issue 55, item 6: wrapped, never cut (it was "Not installed on this machin").
        let text = screen.prefix(12).map { $0.dropFirst().prefix(28).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("Not installed on this machine: termcanvas apps add FOLDER installs it. Until then the pane is kept, and saved, as it is."),
                "\(text)")
        #expect(frame[1, 1].style == host.theme[.warning])

        host.press(.char("k"), .tab)
        #expect(host.manager.focusedPaneID == 2)
        #expect(host.currentLayout().panes[0] == Self.unknown)
    }

    @Test("a package the registry offers is named with the command that installs it")
    func aPackageSaysAppsInstall() throws {
        let recorder = Recorder()
        let catalog = WidgetCatalog(WidgetCatalog.probes(recorder).descriptors,
                                    offering: [CatalogOffer(kind: "xyz", name: "Xyz", summary: "from team", version: "1.0.0")])
        let host = try CanvasHost(layout: LayoutData(name: "test", panes: [Self.unknown], focused: 1), catalog: catalog,
                                  bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock, theme: .dark, logger: Fixed.logger,
                                  size: Size(width: 60, height: 20))
        host.start(HostStart())
        let text = host.screen.prefix(12).map { $0.dropFirst().prefix(28).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("termcanvas apps install xyz installs it from the registry."), "\(text)")
    }

    @Test func itSurvivesBeingMovedAndUndone() throws {
        let host = try makeHost([pane(1, AppKind("xyz"), 0, 0, 4, 12, config: ["k": "v"]), pane(2, .probe, 6, 0, 6, 12)], focused: 1)
        host.press(.ctrl("e"), .right, .char("u"), .right)
        let saved = host.currentLayout().panes[0]
        #expect(saved.app == AppKind("xyz"))
        #expect(saved.frame == Rect(x: 1, y: 0, width: 4, height: 12))
        #expect(saved.config == ["k": "v"])
        #expect(host.screen[1].hasPrefix("     ┃Unavailable       ┃"))
        #expect(host.screen[2].hasPrefix("     ┃micro-app 'xyz'   ┃"))
    }
}
