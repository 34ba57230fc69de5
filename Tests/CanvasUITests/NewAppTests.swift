import CanvasCore
import CanvasUI
import Synchronization
import Testing

/// "New micro-app…": the overlay and the host around a generator that answers as told (the real
/// one, a language model and a trial run, is tested end to end in tmux).
@MainActor
@Suite("New micro-app from the canvas")
struct NewAppTests {
    /// The apps the scripted generator installed, by name, from any thread.
    final class Installs: Sendable {
        private let names = Mutex<[String]>([])
        var installed: [String] { names.withLock { $0 } }
        func add(_ name: String) { names.withLock { $0.append(name) } }
    }

    /// Streams `pieces`, passes `gate`, if any, and returns a review named after the description,
    /// or throws `failure`.
    struct ScriptedGenerator: AppGenerating {
        let installs: Installs
        let recorder: Recorder
        var pieces = ["=== FILE: app.yaml ===\n", "id: laps\n"]
        var failure: String?
        var gate: Gate?

        struct Failure: Error, CustomStringConvertible { let description: String }

        /// Holds the first run that reaches it until that run is stopped; later runs pass.
        final class Gate: Sendable {
            private let never = AsyncStream<Void> { _ in }
            private let runs = Mutex(0)
            func pass() async {
                guard runs.withLock({ $0 += 1; return $0 == 1 }) else { return }
                for await _ in never {}
            }
        }

        func generate(_ description: String, progress: @escaping @Sendable (AppGenerationProgress) -> Void) async throws -> AppReview {
            progress(.asking(model: "scripted", attempt: 1, of: 3))
            for piece in pieces { progress(.text(piece)) }
            progress(.checking)
            await gate?.pass()
            if let failure { throw Failure(description: failure) }
            let (installs, recorder) = (installs, recorder)
            return AppReview(
                id: "laps", name: description, version: "1.0.0", preview: ["laps 0", "+ adds a lap", "", ""],
                manifest: "id: laps\nexec: [python3, app.py]", scriptName: "app.py",
                script: (1...60).map { "line \($0)" }.joined(separator: "\n"), permissions: ["keep state between runs"],
                install: {
                    installs.add(description)
                    return WidgetDescriptor(kind: "laps", name: description, summary: "Counts laps", version: "1.0.0") { config, _ in
                        ProbeWidget(title: "Laps", recorder: recorder, config: config)
                    }
                })
        }
    }

    /// A host with a generator, and the messages its IO sends back.
    @MainActor
    final class Fixture {
        let host: CanvasHost
        let installs = Installs()
        var messages: AsyncStream<HostMessage>.Iterator

        init(_ configure: (inout ScriptedGenerator) -> Void = { _ in }) throws {
            let recorder = Recorder()
            host = try makeHost(halves, size: Size(width: 100, height: 40), recorder: recorder)
            var generator = ScriptedGenerator(installs: installs, recorder: recorder)
            configure(&generator)
            host.appGenerator = generator
            messages = host.effects.messages.makeAsyncIterator()
        }

        /// Hands the host its messages until `condition` holds.
        func deliver(until condition: () -> Bool) async throws {
            while !condition() {
                var iterator = messages
                let next = await iterator.next(isolation: MainActor.shared)
                messages = iterator
                guard let message = next else { throw CancellationError() }
                host.receive(message)
            }
        }

        var overlay: NewAppOverlay? { host.overlay as? NewAppOverlay }

        var stage: String {
            switch overlay?.stage {
            case .describing: "describing"
            case .writing: "writing"
            case .reviewing: "reviewing"
            case .installing: "installing"
            case .failed: "failed"
            case nil: "closed"
            }
        }

        func type(_ text: String) {
            for character in text { host.press(.char(character)) }
        }

        /// Opens it from the palette and asks for `description`.
        func describe(_ description: String = "Lap counter") {
            host.press(.ctrl("p"))
            type("new micro")
            host.press(.enter)
            type(description)
            host.press(.enter)
        }
    }

    @Test func thePaletteAndTheCatalogOfferItOnlyWithAGenerator() throws {
        let without = try makeHost(halves, size: Size(width: 100, height: 40))
        without.press(.ctrl("p"))
        for character in "new micro" { without.press(.char(character)) }
        #expect(!without.screen.contains { $0.contains(NewAppOverlay.entryTitle) })

        let fixture = try Fixture()
        let host = fixture.host
        host.press(.ctrl("p"))
        fixture.type("new micro")
        #expect(host.screen.contains { $0.contains("New micro-app… (describe it; a language model writes it)") })
        host.press(.escape)
        // The catalog's last entry, after the widgets.
        host.press(.ctrl("e"), .char("a"))
        #expect(host.screen.contains { $0.contains("5 New micro-app… — describe it in words") })
        host.press(.char("5"), .enter)
        #expect(fixture.stage == "describing")
        #expect(host.screen.contains { $0.contains("┏━ New micro-app ━") })
    }

    @Test func theAnswerStreamsThenTheReviewShowsTheViewWhatItAsksForAndTheScript() async throws {
        let fixture = try Fixture()
        let host = fixture.host
        fixture.describe()
        #expect(fixture.stage == "writing")
        try await fixture.deliver { host.screen.contains { $0.contains("Checking the manifest") } }
        #expect(host.screen.contains { $0.contains("=== FILE: app.yaml ===") })
        try await fixture.deliver { fixture.stage == "reviewing" }
        let screen = host.screen
        #expect(screen.contains { $0.contains("┏━ New micro-app: Lap counter 1.0.0 ━") })
        #expect(screen.contains { $0.contains("│laps 0      │") }, "framed to its widest row")
        #expect(screen.contains { $0.contains("keep state between runs") })
        #expect(screen.contains { $0.contains("── app.py ──") })
        #expect(!screen.contains { $0.contains("line 60") })
        host.press(Key(.end))
        #expect(host.screen.contains { $0.contains("line 60") }, "the script scrolls")
        #expect(host.statusBar.hasPrefix(" NEW APP "))
    }

    @Test func enterInstallsAddsTheFocusedPaneAndKeepsItInTheCatalog() async throws {
        let fixture = try Fixture()
        let host = fixture.host
        fixture.describe()
        try await fixture.deliver { fixture.stage == "reviewing" }
        host.press(.enter)
        try await fixture.deliver { host.overlay == nil }
        #expect(fixture.installs.installed == ["Lap counter"])
        #expect(host.manager.focusedPane?.app == "laps")
        #expect(host.catalog.descriptors.last?.kind == "laps")
        #expect(host.generatedApps.map(\.kind) == ["laps"])
        #expect(host.notice == .info("Installed Lap counter: its pane asks before the app runs"))
    }

    @Test func escTurnsTheReviewedAppDown() async throws {
        let fixture = try Fixture()
        let host = fixture.host
        fixture.describe()
        try await fixture.deliver { fixture.stage == "reviewing" }
        host.press(.escape)
        #expect(host.overlay == nil)
        #expect(host.manager.panes.count == 2)
        host.press(.ctrl("e"), .char("a"))
        #expect(!host.screen.contains { $0.contains("Lap counter") })
        #expect(fixture.installs.installed.isEmpty)
    }

    @Test func aRunStoppedWithEscNeverReachesTheReviewOfTheNextRun() async throws {
        let gate = ScriptedGenerator.Gate()
        let fixture = try Fixture { $0.gate = gate }
        let host = fixture.host
        fixture.describe("First")
        try await fixture.deliver { host.screen.contains { $0.contains("Checking the manifest") } }
        host.press(.escape)
        #expect(host.overlay == nil)
        // The first run, stopped, still says how it ended (a review, as the gate lets it go on):
        // that news reaches the host among the second run's, and is ignored.
        fixture.describe("Second")
        try await fixture.deliver { fixture.stage == "reviewing" }
        #expect(host.screen.contains { $0.contains("New micro-app: Second 1.0.0") })
        host.press(.enter)
        try await fixture.deliver { host.overlay == nil }
        #expect(fixture.installs.installed == ["Second"])
    }

    @Test func aFailureSaysWhyAndEnterTriesAgainWithTheDescriptionKept() async throws {
        let fixture = try Fixture { $0.failure = "no key: set TC_KEY" }
        let host = fixture.host
        fixture.describe()
        try await fixture.deliver { fixture.stage == "failed" }
        #expect(host.screen.contains { $0.contains("No app was written: no key: set TC_KEY") })
        host.press(.enter)
        #expect(fixture.stage == "describing")
        #expect(fixture.overlay?.description.text == "Lap counter")
    }

    @Test func theModelsTextIsDrawnSafe() async throws {
        let fixture = try Fixture { $0.pieces = ["evil \u{1B}]0;pwned\u{07}\u{1B}[2J text"] }
        let host = fixture.host
        fixture.describe()
        try await fixture.deliver { host.screen.contains { $0.contains("Checking the manifest") } }
        let buffer = host.compose()
        expectWellFormed(buffer)
        #expect(buffer.lines.contains { $0.contains("evil ␛]0;pwned␇␛[2J text") })
    }

    @Test func theAnswerKeptForDisplayIsBounded() {
        var log = AppWritingLog()
        for _ in 0..<1000 { log.add(.text(String(repeating: "x", count: 100) + "\n")) }
        #expect(log.answer.utf8.count <= 4096)
        #expect(log.answer.hasSuffix("x\n"))
    }
}
