import CanvasCore
@testable import CanvasUI
import Testing

/// What a registry offers to install (a package), in the `a` catalog: listed after the widgets, the
/// suggested first, each under its heading; chosen, it is installed through the host's port, and
/// its pane is added once it is.
@MainActor
@Suite("Canvas host: the catalog's offers")
struct CatalogOfferTests {
    final class Installs {
        var asked: [String] = []
    }

    static let offers = [
        CatalogOffer(kind: "sysmon", name: "System monitor", summary: "from team, asks to read /proc", version: "1.0.0", registry: "team"),
        CatalogOffer(kind: "notes", name: "Notes", summary: "from team, asks for nothing", version: "2.0.0", suggested: "installed by 2 teammates"),
    ]

    static func host(_ installs: Installs, recorder: Recorder = Recorder()) throws -> CanvasHost {
        let catalog = WidgetCatalog(WidgetCatalog.probes(recorder).descriptors, offering: offers)
        let host = try CanvasHost(layout: LayoutData(name: "test", panes: halves, focused: 1), catalog: catalog,
                                  bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock, theme: .dark, logger: Fixed.logger,
                                  size: Size(width: 160, height: 40), ports: HostPorts(installApp: { installs.asked.append($0.shownID) }))
        host.start()
        return host
    }

    @Test("listed after the widgets, the suggested first, each under its heading, with what it asks for")
    func listed() throws {
        let host = try Self.host(Installs())
        host.press(.ctrl("e"), .char("a"))
        let screen = host.screen.joined(separator: "\n")
        let widgets = host.catalog.descriptors.count
        let suggested = try #require(screen.range(of: "Suggested for you"))
        let registry = try #require(screen.range(of: "From the registry"))
        #expect(suggested.lowerBound < registry.lowerBound)
        #expect(screen.contains("\(widgets + 1) Notes 2.0.0 (notes) — installed by 2 teammates · from team, asks for nothing"))
        #expect(screen.contains("\(widgets + 2) System monitor 1.0.0 (team/sysmon) — from team, asks to read /proc"))
    }

    @Test("chosen, it is installed through the port and added once installed; a pane is not added before")
    func installedThenAdded() throws {
        let installs = Installs()
        let recorder = Recorder()
        let host = try Self.host(installs, recorder: recorder)
        host.press(.ctrl("e"), .char("a"))
        for _ in 0...host.catalog.descriptors.count { host.press(.down) }
        host.press(.enter)
        #expect(installs.asked == ["team/sysmon"])
        #expect(host.notice?.text == "Installing System monitor…")
        #expect(host.manager.panes.count == 2)

        let installed = WidgetDescriptor(kind: "sysmon", name: "System monitor", summary: "CPU", version: "1.0.0") { config, _ in
            ProbeWidget(title: "System monitor", recorder: recorder, config: config)
        }
        _ = host.update(.appInstalled(installed))
        #expect(host.manager.panes.contains { $0.app == "sysmon" })
        #expect(host.notice?.text == "Installed System monitor 1.0.0")
        #expect(host.catalog.descriptors.contains { $0.kind == "sysmon" })
        #expect(!host.catalog.offers.contains { $0.kind == "sysmon" }, "no longer offered once installed")
        #expect(host.catalog.descriptor(for: "notes") == nil, "an offer is never mounted")
    }

    @Test("over 500 offers the box shows a window of them around the selection, and Enter installs the one selected")
    func manyOffers() throws {
        let installs = Installs()
        let many = (0..<500).map { index in
            CatalogOffer(kind: AppKind("bench-\(index)"), name: "Bench app \(index)", summary: "from team", version: "1.0.0",
                         suggested: index < 3 ? "installed by a teammate" : nil, registry: "team")
        }
        let catalog = WidgetCatalog(WidgetCatalog.probes(Recorder()).descriptors, offering: many)
        let host = try CanvasHost(layout: LayoutData(name: "test", panes: halves, focused: 1), catalog: catalog,
                                  bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock, theme: .dark, logger: Fixed.logger,
                                  size: Size(width: 100, height: 30), ports: HostPorts(installApp: { installs.asked.append($0.shownID) }))
        host.start()
        host.press(.ctrl("e"), .char("a"))
        let widgets = host.catalog.descriptors.count
        #expect(host.screen.contains { $0.contains("Suggested for you") })
        #expect(host.screen.contains { $0.contains("more below") })
        for _ in 0..<(widgets + 250) { host.press(.down) }
        let screen = host.screen
        // Entry widgets + 251 is the offer at 250: the three suggested ones, then the rest by name.
        let selected = try #require(screen.first { $0.contains("\(widgets + 251) ") })
        #expect(selected.contains("(team/"))
        #expect(screen.contains { $0.contains("more above") } && screen.contains { $0.contains("more below") })
        #expect(!screen.contains { $0.contains("Suggested for you") || $0.contains("From the registry") })
        host.press(.enter)
        let chosen = try #require(installs.asked.first)
        #expect(selected.contains("(\(chosen))"), "\(selected) installs \(chosen)")
    }

    @Test("a list longer than the screen scrolls with its selection, counting what is above and below")
    func longListsScroll() {
        let lines = (1...500).map { OverlayLine("line \($0)", $0 == 300 ? .selection : .overlay) }
        let shown = OverlayBox.window(of: lines, rows: 20)
        #expect(shown.count == 20)
        #expect(shown.contains { $0.text == "line 300" && $0.role == .selection })
        // Lines 290 to 309 fit, the selected one (300) in the middle; the first and last of them
        // say how many are hidden, themselves included.
        #expect(shown.first?.text == "… 290 more above")
        #expect(shown.last?.text == "… 192 more below")
        #expect(OverlayBox.window(of: Array(lines.prefix(10)), rows: 20).count == 10)
    }
}
