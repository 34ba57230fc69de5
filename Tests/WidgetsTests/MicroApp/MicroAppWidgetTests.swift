import CanvasCore
import CanvasUI
import struct ServerAPI.AppHealth
import struct ServerAPI.MicroAppInfo
import AppModel
import CalendarTime
import MicroAppProtocol
import Testing
import Widgets

@MainActor
@Suite("The micro-app widget between the canvas and its app")
struct MicroAppWidgetTests {
    @Test func keysGoToTheAppByName() throws {
        let connection = RecordingConnection()
        var widget = try appWidget(showing: .text("x", role: nil, wrap: true), connection: connection)
        #expect(try widget.send(.key(.char("+"))) == .handled)
        #expect(try widget.send(.key(.ctrl("j"))) == .handled)
        #expect(try widget.send(.key(Key(.pageDown))) == .handled)
        #expect(connection.sent.suffix(3) == [.key(name: "+", text: "+"), .key(name: "ctrl+j", text: nil), .key(name: "pagedown", text: nil)])
    }

    @Test func anInputIsEditedByTheHostAndSubmittedOnEnter() throws {
        let connection = RecordingConnection()
        var widget = try appWidget(showing: .input(id: "q", value: "", placeholder: "search", label: "Find"), connection: connection)
        widget.focusChanged(to: true)
        #expect(widget.capturesText)
        for character in "déjà" { _ = try widget.handle(.key(.char(character))) }
        #expect(render(widget, size: Size(width: 12, height: 1)).lines == ["Find déjà   "])
        _ = try widget.handle(.key(.enter))
        #expect(connection.sent.last == .inputSubmit(id: "q", value: "déjà"))
        #expect(!connection.sent.contains { if case .key = $0 { true } else { false } })
    }

    @Test func theGrantIsAskedInThePane() throws {
        let connection = RecordingConnection()
        var widget = try appWidget(connection: connection)
        connection.deliver { $0.status = .needsGrant(testApp.manifest.requested, unsandboxed: nil) }
        _ = try widget.notified()
        let screen = render(widget, size: Size(width: 70, height: 8)).lines
        #expect(screen[0].hasPrefix("Probe 1.0.0 asks to run: y allows · n refuses"))
        #expect(screen[1].hasPrefix("It runs in a sandbox with what is listed here:"))
        #expect(screen[2].hasPrefix("• publish probe.thing.done"))
        #expect(screen[3].hasPrefix("• hear calendar.*"))
        let narrow = render(widget, size: Size(width: 20, height: 3)).lines
        #expect(narrow == ["Probe 1.0.0 asks to ", "run: y allows · n   ", "refuses             "])
        #expect(widget.title == "Probe · asks for permission")
        // Issue 55, item 6: a pane too short for the question keeps the keys that answer it, says
        // there is more, and scrolls to its end: the last line was out of sight.
        let short = render(widget, size: Size(width: 70, height: 4)).lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(short[0].hasPrefix("Probe 1.0.0 asks to run: y allows · n refuses"))
        #expect(short[3].hasPrefix("↓ ") && short[3].hasSuffix("more lines · ↑↓ scroll"), "\(short)")
        for _ in 0..<20 { _ = try widget.handle(.key(Key(.down))) }
        let end = render(widget, size: Size(width: 70, height: 4)).lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(end[2] == "• nothing else of your files, network or processes" && end[3] == "the end · ↑ scrolls back", "\(end)")
        #expect(try widget.send(.key(.char("q"))) == .ignored)  // the canvas still quits
        _ = try widget.handle(.key(.char("n")))
        _ = try widget.handle(.key(.char("y")))
        #expect(connection.calls == ["start", "refuse", "grant"])
    }

    @Test func whatTheAppPublishesIsReturnedForTheBus() throws {
        let bus = EventBus(now: Fixed.clock.now)
        let connection = RecordingConnection()
        var widget = try appWidget(connection: connection, bus: bus)
        connection.deliver { updates in
            updates.publishes = [Publish(name: "probe.thing.done", summary: "done", payload: .object(["n": 1]))]
            updates.throttled = 7
            updates.crashes = ["exit 2"]
        }
        CommandLog(bus: bus, pane: 1).record(try widget.notified())
        let events = bus.log.events.map { "\($0.name) \($0.source.map { "\($0.rawValue)" } ?? "-") \($0.summary)" }
        #expect(events == ["probe.thing.done 1 done", "canvas.app.throttled 1 probe: dropped 7 publishes over its limit",
                           "canvas.app.crashed 1 probe: exit 2"])
    }

    @Test func refusedPublishesAreCountedInTheTitleUntilThePaneHasTheFocus() throws {
        let connection = RecordingConnection()
        var widget = try appWidget(connection: connection)
        connection.deliver { updates in
            updates.refused = 2
            updates.throttled = 1
        }
        _ = try widget.notified()
        #expect(widget.title == "Probe · 3 refused")
        widget.focusChanged(to: true)
        #expect(widget.title == "Probe")
    }

    @Test func busEventsReachTheAppAsJSON() throws {
        let bus = EventBus(now: Fixed.clock.now)
        let connection = RecordingConnection()
        var widget = try appWidget(connection: connection, bus: bus)
        bus.publish(DateSelected(date: date("2026-11-24")), from: 2)
        let event = try #require(bus.log.events.last)
        _ = try widget.receive(event)
        guard case .busEvent(let params)? = connection.sent.last else {
            Issue.record("expected a bus event")
            return
        }
        #expect(params.name == "calendar.date.selected")
        #expect(params.source == "pane:2")
        #expect(params.payload == .object(["date": "2026-11-24"]))
        #expect(widget.subscriptions == [EventPattern("calendar.*")!])
    }

    @Test func stateIsKeptWithTheLayoutAndHandedBack() throws {
        let connection = RecordingConnection()
        var widget = try appWidget(connection: connection)
        connection.deliver { $0.state = .object(["count": 2]) }
        _ = try widget.notified()
        #expect(widget.state == ["app": #"{"count":2}"#])
        let again = MicroAppWidget(app: testApp, connection: RecordingConnection(), state: widget.state)
        #expect(again.state == widget.state)
    }

    @Test func aCrashedAppSaysSoAndRestartsOnR() throws {
        let connection = RecordingConnection()
        var widget = try appWidget(showing: .text("last", role: nil, wrap: true), connection: connection)
        connection.deliver { $0.status = .stopped("exit 1; crashed 5 times in 2 minutes") }
        _ = try widget.notified()
        #expect(widget.title == "Probe · stopped")
        #expect(render(widget, size: Size(width: 45, height: 3)).lines
            == ["last                                         ", "Stopped: exit 1; crashed 5 times in 2 minutes", "r starts it again                            "])
        #expect(try widget.send(.key(.char("x"))) == .ignored)
        _ = try widget.handle(.key(.char("r")))
        #expect(connection.calls.last == "restart")
    }

    /// Issue 40, item 14: an app that starts after the calendar chose a day learns the day in
    /// `initialize`: the last event of each name it subscribes to, oldest first.
    @Test func aPaneThatStartsLaterIsToldWhatTheCanvasAlreadyKnows() throws {
        let bus = EventBus(now: Fixed.clock.now)
        bus.publish(DateSelected(date: CalendarDate(year: 2026, month: 11, day: 24)!), from: PaneID(rawValue: 1))
        bus.publish(AppThrottled(app: "other", dropped: 1))
        bus.publish(DateSelected(date: CalendarDate(year: 2026, month: 11, day: 26)!), from: PaneID(rawValue: 1))
        let connection = RecordingConnection()
        var widget = MicroAppWidget(app: testApp, connection: connection)  // subscribes to calendar.*
        _ = try widget.mount(context(bus: bus))
        let events = try #require(connection.started?.events)
        #expect(events.map(\.name) == ["calendar.date.selected"])
        #expect(events.first?.payload == .object(["date": "2026-11-26"]))
        #expect(events.first?.source == "pane:1")
    }

    /// Issue 40, item 13: an app's declared settings are the pane's settings (`s`); a change is
    /// sent to the app at once and kept with the layout.
    @Test func anAppsDeclaredSettingsAreChangedInItsPane() throws {
        var manifest = testApp.manifest
        manifest.settings = [AppManifest.Setting(name: "units", help: "Units", choices: ["metric", "imperial"], defaultValue: "metric")]
        let app = InstalledApp(manifest: manifest, folder: testApp.folder, digest: "0", isShipped: false)
        let connection = RecordingConnection()
        var widget = MicroAppWidget(app: app, connection: connection, config: ["city": "Oslo"])
        _ = try widget.mount(context(bus: EventBus(now: Fixed.clock.now)))
        #expect(connection.started?.settings == .object(["units": "metric", "city": "Oslo"]))
        #expect(widget.settings == [WidgetSetting(key: "units", label: "Units", value: "metric", choices: ["metric", "imperial"])])
        try widget.cycleSetting("units")
        #expect(widget.settings.first?.value == "imperial")
        #expect(widget.config == ["city": "Oslo", "units": "imperial"])
        #expect(connection.sent.last == .settings(.object(["units": "imperial", "city": "Oslo"])))
    }

    @Test func aRemotePaneNamesItsVersionAndTheHealthTheRegistryReports() throws {
        let bus = EventBus(now: Fixed.clock.now)
        let connection = RecordingConnection()
        let remote = InstalledApp(remote: testApp.manifest)
        var widget = MicroAppWidget(app: remote, connection: connection, health: AppHealth(state: .up))
        _ = try widget.mount(context(bus: bus))
        connection.deliver { $0.status = .needsGrant(testApp.manifest.requested, unsandboxed: nil) }
        _ = try widget.notified()
        #expect(widget.title == "Probe 1.0.0 · asks for permission")
        #expect(render(widget, size: Size(width: 100, height: 4)).lines[1]
            .hasPrefix("It runs at its entry, a server of your team's registry, and gets the keys you type in its pane."))
        connection.deliver { $0.status = .starting }
        _ = try widget.notified()
        #expect(widget.title == "Probe 1.0.0 · starting")  // its session says more than an entry that is up
        connection.deliver { $0.status = .running }
        _ = try widget.notified()
        #expect(widget.title == "Probe 1.0.0 · up")
        #expect(widget.subscriptions.contains(.exact(RegistryLoaded.name)))

        func report(_ health: AppHealth, for id: String = "probe") throws {
            let info = MicroAppInfo(id: id, name: "Probe", version: "1.1.0", description: "", basePath: "", events: [],
                                    kind: .remote, health: health)
            bus.publish(RegistryLoaded(apps: [info], origin: .server))
            _ = try widget.receive(try #require(bus.log.events.last))
        }
        let down = AppHealth(state: .down, since: "2026-11-23T14:02:00Z")
        try report(down)
        // The version stays the one mounted, a newer one is for the next mount.
        #expect(widget.title == "Probe 1.0.0 · \(down.label())")
        #expect(down.label().hasPrefix("down since "))
        // In local time, from the C library's offset (an hour east here; a day boundary crossed).
        #expect(down.label(secondsFromGMT: { _ in 3_600 }) == "down since 15:02")
        #expect(AppHealth(state: .down, since: "2026-11-23T23:30:00Z").label(secondsFromGMT: { _ in 5_400 }) == "down since 01:00")
        try report(AppHealth(state: .up), for: "other")
        #expect(widget.title.hasPrefix("Probe 1.0.0 · down since "))
        connection.deliver { $0.status = .restarting(exit: "the app's entry is unreachable", afterSeconds: 2) }
        _ = try widget.notified()
        try report(AppHealth(state: .up))
        #expect(widget.title == "Probe 1.0.0 · the app's entry is unreachable, restarting")
        try report(AppHealth(state: .degraded, reason: "slow disk"))
        #expect(widget.title == "Probe 1.0.0 · degraded (slow disk)")
        // The registry's news is the pane's, never sent to the app.
        #expect(!connection.sent.contains { if case .busEvent = $0 { true } else { false } })
    }

    @Test func aLocalPaneSaysNothingOfHealth() throws {
        var widget = MicroAppWidget(app: testApp, connection: RecordingConnection(), health: AppHealth(state: .down))
        _ = try widget.mount(context(bus: EventBus(now: Fixed.clock.now)))
        #expect(widget.title == "Probe")
        #expect(widget.subscriptions == [EventPattern("calendar.*")!])
    }
}
