import CanvasCore
import CanvasUI
import Testing

/// `canvasLoadTime` and `microAppLoadTime` are taken as frames reach the screen: a pane counts
/// once a frame shows its content, the canvas once every pane of the start has.
@MainActor
@Suite("Load times")
struct LoadTimesTests {
    static let slow: AppKind = "slow"

    @Test func theCanvasIsLoadedWithTheFirstFrameInWhichEveryPaneShowsItsContent() throws {
        let started = ContinuousClock.now
        let recorder = Recorder()
        let slow = WidgetDescriptor(kind: Self.slow, name: "Slow", summary: "Shows its content after its first input", version: "1.0.0") {
            config, _ in ProbeWidget(title: "Slow", waitsForInput: true, recorder: recorder, config: config)
        }
        let host = try CanvasHost(
            layout: LayoutData(name: "test", panes: [pane(1, .probe, 0, 0, 6, 12), pane(2, Self.slow, 6, 0, 6, 12)], focused: 2),
            catalog: WidgetCatalog.probes(recorder).adding([slow]), bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock,
            theme: .dark, logger: Fixed.logger, size: Size(width: 60, height: 20))
        host.start(HostStart(processStarted: started))
        #expect(host.isLoading)
        _ = host.compose()
        // The slow pane still waits: the probe is loaded, the canvas is not.
        #expect(host.update(.frameShown(at: .now)).isEmpty)
        #expect(host.isLoading)
        host.press(.char("x"))
        _ = host.compose()
        let shown = ContinuousClock.now
        let effects = host.update(.frameShown(at: shown))
        #expect(!host.isLoading)
        guard effects.count == 1, case .write(.loadTimes(let times)) = effects[0] else {
            Issue.record("\(effects)")
            return
        }
        #expect(times.layout == "test")
        #expect(times.canvasLoadTime == started.duration(to: shown))
        #expect(times.panes.map(\.app) == [.probe, Self.slow])
        #expect(times.panes.allSatisfy { $0.microAppLoadTime >= .zero && $0.microAppLoadTime <= times.canvasLoadTime })
        // Later frames say nothing more.
        #expect(host.update(.frameShown(at: .now)).isEmpty)
    }

    @Test func aFailedWidgetCountsAsShownItsFailureIsItsContent() throws {
        let host = try makeHost([pane(1, .failing, 0, 0, 12, 12)], focused: 1, start: HostStart(processStarted: .now))
        #expect(host.update(.frameShown(at: .now)).isEmpty)
        host.press(.char("x"))
        #expect(host.screen.joined().contains("This widget failed"))
        let effects = host.update(.frameShown(at: .now))
        #expect(effects.contains { if case .write(.loadTimes) = $0 { true } else { false } })
    }

    @Test func withoutAProcessStartOnlyThePanesAreMeasured() throws {
        let host = try makeHost(halves)
        #expect(host.update(.frameShown(at: .now)).isEmpty)
        #expect(!host.isLoading)
    }
}
