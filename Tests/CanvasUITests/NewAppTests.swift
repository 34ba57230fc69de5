import CanvasCore
@testable import CanvasUI
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
    /// or throws `failure`; its install throws `installFailure`, if any.
    struct ScriptedGenerator: AppGenerating {
        let installs: Installs
        let recorder: Recorder
        var pieces = ["=== FILE: app.yaml ===\n", "id: laps\n"]
        var failure: String?
        var installFailure: String?
        var gate: Gate?
        /// What its settings lack, as `problem()` finds it.
        var settingsProblem: String?

        struct Failure: Error, CustomStringConvertible { let description: String }

        /// Holds the first run until it is stopped (then says so), and the second until released.
        final class Gate: Sendable {
            private let (released, release) = AsyncStream<Void>.makeStream()
            private let never = AsyncStream<Void> { _ in }
            private let state = Mutex((runs: 0, firstEnded: false))
            var firstEnded: Bool { state.withLock { $0.firstEnded } }

            func pass() async {
                switch state.withLock({ $0.runs += 1; return $0.runs }) {
                case 1:
                    for await _ in never {}
                    state.withLock { $0.firstEnded = true }
                case 2:
                    for await _ in released { break }
                default: break
                }
            }

            func releaseSecond() { release.yield() }
        }

        func problem() async -> String? { settingsProblem }

        func generate(_ description: String, progress: @escaping @Sendable (AppGenerationProgress) -> Void) async throws -> AppReview {
            progress(.asking(model: "scripted", attempt: 1, of: 3))
            for piece in pieces { progress(.text(piece)) }
            progress(.checking)
            await gate?.pass()
            if let failure { throw Failure(description: failure) }
            let (installs, recorder, installFailure) = (installs, recorder, installFailure)
            return AppReview(
                id: "laps", name: description, version: "1.0.0", preview: ["laps 0", "+ adds a lap", "", ""],
                manifest: "id: laps\nexec: [python3, app.py]", scriptName: "app.py",
                script: (1...60).map { "line \($0)" }.joined(separator: "\n"), permissions: ["keep state with the layout"],
                install: {
                    if let installFailure { throw Failure(description: installFailure) }
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

        init(_ panes: [Pane] = halves, grid: GridSpec = .standard, size: Size = Size(width: 100, height: 40),
             _ configure: (inout ScriptedGenerator) -> Void = { _ in }) throws {
            let recorder = Recorder()
            var generator = ScriptedGenerator(installs: installs, recorder: recorder)
            configure(&generator)
            host = try CanvasHost(layout: LayoutData(name: "test", grid: grid, panes: panes), catalog: .probes(recorder),
                                  bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock, theme: .dark, logger: Fixed.logger, size: size,
                                  ports: HostPorts(appGenerator: generator))
            host.start()
            messages = host.mailbox.messages.makeAsyncIterator()
        }

        /// Hands the host its messages until `condition` holds; fails after 90 s (a message posted
        /// then wakes it). So long because `make test`'s first pass shares the main actor among
        /// hundreds of tests.
        func deliver(until condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let deadline = ContinuousClock.now + .seconds(90)
            let mailbox = host.mailbox
            let alarm = Task {
                try await Task.sleep(until: deadline)
                mailbox.post(.notice(.info("deliver: time is up")))
            }
            defer { alarm.cancel() }
            while !condition() {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the condition did not hold within 90 s", sourceLocation: sourceLocation)
                    throw CancellationError()
                }
                var iterator = messages
                let next = await iterator.next(isolation: MainActor.shared)
                messages = iterator
                guard let message = next else { throw CancellationError() }
                host.deliver(message)
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

        /// Asks for an app and waits for its review.
        func review() async throws {
            describe()
            try await deliver { stage == "reviewing" }
        }

        /// Opens it from the palette.
        func open() {
            host.press(.ctrl("p"))
            type("new micro")
            host.press(.enter)
        }

        /// Opens it from the palette and asks for `description`.
        func describe(_ description: String = "Lap counter") {
            open()
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
        // And its own key, F2, from normal mode.
        host.press(.escape, .escape)
        #expect(host.overlay == nil && host.mode == .normal)
        host.press(Key(.function(2)))
        #expect(fixture.stage == "describing")
    }

    @Test func theAnswerStreamsThenTheReviewShowsTheViewWhatItAsksForAndTheScript() async throws {
        let fixture = try Fixture()
        let host = fixture.host
        fixture.describe()
        #expect(fixture.stage == "writing")
        try await fixture.deliver { host.screen.contains { $0.contains("Checking the answer") } }
        #expect(host.screen.contains { $0.contains("=== FILE: app.yaml ===") })
        try await fixture.deliver { fixture.stage == "reviewing" }
        let screen = host.screen
        #expect(screen.contains { $0.contains("┏━ New micro-app: Lap counter 1.0.0 ━") })
        #expect(screen.contains { $0.contains("│laps 0      │") }, "framed to its widest row")
        #expect(screen.contains { $0.contains("keep state with the layout") })
        #expect(screen.contains { $0.contains("── app.py ──") })
        #expect(!screen.contains { $0.contains("line 60") })
        host.press(Key(.end))
        #expect(host.screen.contains { $0.contains("line 60") }, "the script scrolls")
        #expect(host.statusBar.hasPrefix(" NEW APP "))
    }

    /// Issue 55, item 14: a script line wider than the box keeps its indentation when wrapped,
    /// and its pieces say they go on, so Python's structure reads as it is on the one screen
    /// meant for checking it.
    @Test func aWideScriptLineKeepsItsIndentationAndMarksWhereItGoesOn() throws {
        let call = "        total = compute_the_total(first_argument, second_argument, third_argument, fourth_argument)"
        let wide = call + " + another(x, y) * factor_of_something_long"
        #expect(DisplayWidth.of(wide) >= 120)
        let line = wide + " - the_rest_of_its"
        let script = "def main():\n    for lap in laps:\n" + line + "\n    return total"
        #expect(DisplayWidth.of(line) == 160)
        let review = AppReview(id: "laps", name: "Laps", version: "1.0.0", preview: ["laps 0"], manifest: "id: laps", scriptName: "app.py",
                               script: script, permissions: [], install: { throw CancellationError() })
        let lines = NewAppOverlay.reviewLines(review, width: 76).map(\.text)
        let start = try #require(lines.firstIndex { $0.hasPrefix("        total = ") })
        let pieces = Array(lines[start...].prefix { $0 != "    return total" })
        #expect(pieces.count == 3, "\(pieces)")
        #expect(pieces.dropFirst().allSatisfy { $0.hasPrefix("        ↪ ") }, "\(pieces)")
        #expect(pieces.allSatisfy { DisplayWidth.of($0) <= 76 })
        // Read back without the marks, the line is whole.
        let joined = pieces.enumerated().map { $0 == 0 ? $1 : String($1.dropFirst(10)) }.joined(separator: " ")
        #expect(joined == line)
        #expect(lines.contains("    for lap in laps:") && lines.contains("    return total"))
    }

    @Test func enterInstallsAddsTheFocusedPaneAndListsItInTheCatalog() async throws {
        let fixture = try Fixture()
        let host = fixture.host
        try await fixture.review()
        host.press(.enter)
        try await fixture.deliver { host.overlay == nil }
        #expect(fixture.installs.installed == ["Lap counter"])
        #expect(host.manager.focusedPane?.app == "laps")
        #expect(host.catalog.descriptors.last?.kind == "laps")
        #expect(host.addedApps.map(\.kind) == ["laps"])
        #expect(host.notice == .info("Installed Lap counter: its pane asks before the app runs"))
    }

    @Test func escTurnsTheReviewedAppDown() async throws {
        let fixture = try Fixture()
        let host = fixture.host
        try await fixture.review()
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
        try await fixture.deliver { host.screen.contains { $0.contains("Checking the answer") } }
        host.press(.escape)
        #expect(host.overlay == nil)
        // The first run, stopped, still says how it ended (a review: the gate lets it go on). Its
        // news is queued before the second run starts, so it arrives while that one is written.
        await host.io.generatorStopped()
        #expect(gate.firstEnded)
        fixture.describe("Second")
        try await fixture.deliver { fixture.stage != "writing" || host.screen.contains { $0.contains("Checking the answer") } }
        #expect(fixture.stage == "writing", "the first run's review is not shown")
        gate.releaseSecond()
        try await fixture.deliver { fixture.stage == "reviewing" }
        #expect(host.screen.contains { $0.contains("New micro-app: Second 1.0.0") })
        host.press(.enter)
        try await fixture.deliver { host.overlay == nil }
        #expect(fixture.installs.installed == ["Second"])
    }

    @Test func qQuestionMarkAndColonAreTypedIntoTheDescription() throws {
        let fixture = try Fixture()
        let host = fixture.host
        fixture.open()
        fixture.type("q?: timer")
        #expect(fixture.overlay?.description.text == "q?: timer")
        #expect(host.shouldQuit == false)
    }

    @Test func aPastedLineBreakIsTextNotEnter() throws {
        let fixture = try Fixture()
        let host = fixture.host
        fixture.open()
        host.input(.paste("a timer\nthat beeps\r\n"))
        #expect(fixture.stage == "describing", "the paste did not submit it")
        #expect(fixture.overlay?.description.text == "a timer that beeps ")  // "\r\n" is one character
        // With no text field to take it, a paste runs nothing (q would quit).
        host.press(.escape)
        host.input(.paste("q"))
        #expect(host.shouldQuit == false)
        #expect(host.notice?.text == "Nothing to paste into: no text field has the focus")
    }

    @Test func whatStopsWritingAnAppIsSaidAsTheBoxOpens() async throws {
        let fixture = try Fixture { $0.settingsProblem = "no API key: the environment variable K (keyVariable in ai.yaml) is not set" }
        let host = fixture.host
        fixture.open()
        try await fixture.deliver { fixture.overlay?.problem != nil }
        #expect(host.screen.joined().contains("To fix first: no API key"))
    }

    @Test func aTinyTerminalShowsTheFieldAndEveryStageWhole() async throws {
        let fixture = try Fixture(size: Size(width: 24, height: 7))
        let host = fixture.host
        fixture.open()
        fixture.type("laps")
        expectWellFormed(host.compose())
        #expect(host.screen.contains { $0.contains("> laps▏") }, "\(host.screen.joined(separator: "\n"))")
        host.press(.enter)
        try await fixture.deliver { fixture.stage == "reviewing" }
        expectWellFormed(host.compose())
        host.press(Key(.end))
        expectWellFormed(host.compose())
        #expect(host.screen.contains { $0.contains("line 60") })
    }

    @Test func anInstallThatFailsSaysSoAndNothingIsAdded() async throws {
        let fixture = try Fixture { $0.installFailure = "the disk is full" }
        let host = fixture.host
        try await fixture.review()
        host.press(.enter)
        try await fixture.deliver { fixture.stage == "failed" }
        #expect(host.screen.contains { $0.contains("The app was not installed: the disk is full") })
        #expect(host.manager.panes.count == 2)
        #expect(host.addedApps.isEmpty)
    }

    @Test func anAppInstalledOnAFullCanvasIsListedAndTheNoticeSaysItHasNoPane() async throws {
        // Two panes of the smallest size fill a 4×2 grid: no room for a third.
        let grid = GridSpec(columns: 4, rows: 2, minimumPaneSize: Size(width: 2, height: 2))
        let fixture = try Fixture([pane(1, .probe, 0, 0, 2, 2), pane(2, .probe, 2, 0, 2, 2)], grid: grid)
        let host = fixture.host
        try await fixture.review()
        host.press(.enter)
        try await fixture.deliver { host.overlay == nil }
        #expect(host.manager.panes.count == 2)
        #expect(host.catalog.descriptors.last?.kind == "laps")
        #expect(host.notice?.kind == .error)
        #expect(host.notice?.text.hasPrefix("Installed Lap counter, but its pane did not fit") == true, "\(String(describing: host.notice))")
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
        try await fixture.deliver { host.screen.contains { $0.contains("Checking the answer") } }
        let buffer = host.compose()
        expectWellFormed(buffer)
        #expect(buffer.lines.contains { $0.contains("evil ␛]0;pwned␇␛[2J text") })
    }

    @Test func theAnswerKeptForDisplayIsBounded() {
        var log = AppWritingLog()
        for _ in 0..<1000 { log.add(.text(String(repeating: "x", count: 100) + "\n")) }
        #expect(log.answer.utf8.count <= 4096)
        #expect(log.answer.hasSuffix("x\n"))
        // One character of thousands of combining marks is cut too.
        log.add(.text("e" + String(repeating: "\u{301}", count: 10_000)))
        #expect(log.answer.utf8.count <= 4096)
    }

    /// The description wraps in the box; the cursor lands on the character it is before, on
    /// whichever line that went to (a break drops the space between two words).
    @Test func theDescriptionsCursorLandsWhereItsCharacterWrapped() {
        let text = "a laps  counter for the pool, über-long-word-with-no-spaces end"
        for width in [8, 10, 13] {
            for back in 0...text.count {
                var field = TextField(text, limit: 300)
                for _ in 0..<back { _ = field.edit(.left) }
                let lines = NewAppOverlay.field("> ", field, width: width)
                let marked = lines.filter { $0.cursor != nil }
                #expect(marked.count == 1, "width \(width), \(back) back")
                guard let line = marked.first, let column = line.cursor else { continue }
                #expect(lines.allSatisfy { DisplayWidth.of($0.text) <= width })
                if back > 0 {
                    // A space the wrap dropped at a break has no cell: the cursor is after the line.
                    let expected = Array(text)[text.count - back]
                    let found = Self.character(in: line.text, atColumn: column)
                    #expect(found == expected || (expected == " " && found == nil), "width \(width), \(back) back: \(lines.map(\.text)) at \(column)")
                } else {
                    #expect(line == lines.last && column == DisplayWidth.of(line.text), "the end: \(lines.map(\.text))")
                }
            }
        }
    }

    private static func character(in text: String, atColumn column: Int) -> Character? {
        var x = 0
        for character in text {
            if x == column { return character }
            x += DisplayWidth.of(character)
        }
        return nil
    }
}
