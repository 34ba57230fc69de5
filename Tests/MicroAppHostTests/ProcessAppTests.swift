import AppModel
import Foundation
import MicroAppHost
import MicroAppProtocol
import Testing

/// Real processes on real pipes: the fixture apps of `Tests/EndToEndTests/Fixtures/apps`.
@Suite("Process micro-apps, contained", .serialized)
struct ProcessAppTests {
    @Test func aKeyUpdatesTheCounterAndItsStateIsKept() async throws {
        let app = try AppHarness("counter", state: .object(["count": 41]))
        #expect(await app.wait { $0.viewText.isEmpty == false || $0.view != nil })
        app.connection.send(.key(name: "+", text: "+"))
        #expect(await app.wait { $0.state == .object(["count": 42]) && !$0.publishes.isEmpty })
        #expect(app.publishes.map(\.name) == ["counter.count.changed"])
        app.connection.stop()
        await app.runtime.stopAll()
        #expect(processes(matching: "counter.py").isEmpty)
    }

    @Test func anAppThatNeverAnswersIsStoppedAndNothingOfItsGroupIsLeft() async throws {
        let app = try AppHarness("silent")
        #expect(await app.wait(3) { $0.status == .stopped("did not answer within 1 s") })
        #expect(await app.wait(2) { _ in processes(matching: "sleep 1000").isEmpty && processes(matching: "silent.sh").isEmpty })
        await app.runtime.stopAll()
    }

    @Test func anAppThatIgnoresSIGTERMIsKilledWithinASecond() async throws {
        let app = try AppHarness("stubborn")
        #expect(await app.wait { $0.status == .running })
        let started = ContinuousClock.now
        await app.runtime.stopAll()
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(processes(matching: "stubborn.py").isEmpty)
    }

    @Test func aFloodOf100MBKeepsMemoryBoundedAndTheLatestViewOnly() async throws {
        let before = residentBytes()
        let app = try AppHarness("flood")
        #expect(await app.wait(60) { $0.viewText == "flood done" })
        #expect(residentBytes() - before < 64 << 20)
        #expect(app.log.contains("dropped a line of 1000000 bytes"))
        #expect(await app.wait(3) { $0.throttled > 0 })
        #expect(app.publishes.count < 100)  // 20 a second, over the seconds the flood took
        #expect(app.publishes.count + app.throttled == 1000)
        app.connection.send(.key(name: "a", text: "a"))
        #expect(await app.wait { $0.viewText == "flood answered" })
        await app.runtime.stopAll()
    }

    @Test func escapeSequencesStayInTheLogEscapedAndNeverReachATerminal() async throws {
        let app = try AppHarness("escapes")
        #expect(await app.wait { $0.view != nil })
        #expect(await app.wait { $0.log.contains("no terminal") })
        let log = app.log
        #expect(!log.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        #expect(log.contains("\\u{1B}]0;pwned"))
        await app.runtime.stopAll()
    }

    @Test func crashesRestartWithBackoffAndTheirState() async throws {
        let app = try AppHarness("crasher")
        #expect(await app.wait(10) { $0.crashes.count >= 3 })
        #expect(app.statuses.contains(.restarting(exit: "exit 1", afterSeconds: 1)))
        #expect(app.statuses.contains(.restarting(exit: "exit 1", afterSeconds: 2)))
        // Each run started from the state the one before saved.
        #expect(await app.wait(5) { $0.viewText == "runs 3" || $0.viewText == "runs 4" })
        await app.runtime.stopAll()
        #expect(processes(matching: "crasher.py").isEmpty)
    }

    @Test func theEnvironmentIsScrubbedAndTheFolderIsTheWorkingDirectory() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TERMCANVAS_SECRET"] = "hunter2"
        environment["TERMCANVAS_ALLOWED"] = "yes"
        environment["HOME"] = "/tmp"
        let app = try AppHarness("envprobe", environment: environment)
        #expect(await app.wait { $0.view != nil }, "\(app.log)")
        let text = app.viewText
        #expect(text.contains(" HOME "))
        #expect(text.contains(" TERMCANVAS_ALLOWED "))
        #expect(text.contains(" TERMCANVAS_APP_ID "))
        #expect(!text.contains("TERMCANVAS_SECRET"))
        #expect(text.hasSuffix("cwd \(AppHarness.fixtures.appendingPathComponent("envprobe").path)"))
        await app.runtime.stopAll()
    }

    @Test func aSampleSlowerThanItsPeriodIsKilledNotStartedTwice() async throws {
        let app = try AppHarness("slowsample")
        #expect(await app.wait(4) { app in
            guard case .stack(_, let children)? = app.view?.root, case .text(let problem, _, _)? = children.last?.node else { return false }
            return problem == "timed out after 1 s"
        })
        let runs: @Sendable () -> [Int32] = { processes(matching: "echo started; sleep 5") + processes(matching: "sleep 5").filter { commandLine($0) == "sleep 5 " } }
        #expect(runs().count <= 2, "one run: its shell and its sleep")
        await app.runtime.stopAll()
        // Killed at once; the bound is for a loaded machine.
        #expect(await app.wait(5) { _ in runs().isEmpty }, "left: \(runs().map(describe))")
    }

    /// An app that started 3 000 processes is ended with all of them at once: its keeper reaps
    /// every zombie before it looks for the next children. It reaped one a scan of /proc, and a
    /// scan reads every process's stat: 3 000 zombies took 40 s, holding their ids and the user's
    /// process allowance meanwhile.
    @Test func thousandsOfChildrenEndWithTheirApp() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-forker-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: AppHarness.fixtures.appendingPathComponent("forker"), to: folder)
        let manifest = folder.appendingPathComponent("app.yaml")
        try Data(try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "processes: 16", with: "processes: 4096, startup: 60s").utf8)
            .write(to: manifest)
        var environment = ProcessInfo.processInfo.environment
        environment["FORKER_MOST"] = "3000"
        let app = try AppHarness("forker", folder: folder, environment: environment)
        #expect(await app.wait(60) { $0.viewText.hasPrefix("started=3000") }, "\(app.viewText)")
        await app.runtime.stopAll()
        #expect(await app.wait(3) { _ in processes(matching: "forker.py").isEmpty && zombiesOfKeepers() == 0 },
                "\(processes(matching: "forker.py").count) running, \(zombiesOfKeepers()) zombies")
    }

    /// An app keeps at most `limits.disk` in its temporary and data folders together (8 MiB for
    /// the hoarder), at most 20 000 files and folders, nested at most 32 deep: past any, it is
    /// stopped, and its status says which. Measured when inotify says the folders changed; files it
    /// holds open once unlinked count.
    @Test(arguments: [
        ("files:64:1048576", "tmp", "keeping over 8 MiB (limits.disk) in its folders"),
        ("files:64:1048576", "data", "keeping over 8 MiB (limits.disk) in its folders"),
        ("unlinked:16:1048576", "data", "keeping over 8 MiB (limits.disk) in its folders"),
        ("entries:25000", "tmp", "keeping over 20000 files in its folders"),
        ("deep:40", "data", "keeping folders nested over 32 deep in its folders"),
    ])
    func whatAnAppKeepsInItsFoldersIsBounded(_ example: (String, String, String)) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HOARDER"] = example.0
        environment["HOARDER_IN"] = example.1
        let app = try AppHarness("hoarder", environment: environment)
        if example.1 == "tmp", SandboxSupport.current.hasWorld {
            // Its TMPDIR is a tmpfs of limits.disk in its world: the kernel refuses what passes it.
            #expect(await app.wait(30) { $0.log.contains("No space left on device") }, "\(app.log)")
            #expect(app.viewText != "kept")
        } else {
            // Issue 55, item 17: the status names the command that empties what lasts.
            let status = AppStatus.stopped(example.2 + "; termcanvas apps data hoarder shows what, --clear empties it")
            #expect(await app.wait(30) { $0.status == status }, "\(String(describing: app.status)) \(app.viewText)")
            #expect(app.log.contains("stopped: \(example.2.dropLast(" in its folders".count)) in its folders ("), "\(app.log)")
        }
        await app.runtime.stopAll()
    }

    /// Within its limits an app is left alone; one file past them ends it (RLIMIT_FSIZE).
    @Test func withinItsDiskLimitAnAppRunsAndOneFilePastItEndsIt() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HOARDER"] = "files:4:1048576"
        let within = try AppHarness("hoarder", environment: environment)
        #expect(await within.wait(10) { $0.viewText == "kept" })
        try await Task.sleep(for: .milliseconds(300))
        #expect(within.status == .running)
        await within.runtime.stopAll()
        environment["HOARDER"] = "big:16777216"
        environment["HOARDER_IN"] = "data"
        let past = try AppHarness("hoarder", environment: environment)
        // Python ignores SIGXFSZ, so its write fails (EFBIG) and it exits; others die of the signal.
        #expect(await past.wait(10) { $0.crashes.count >= 1 }, "\(past.statuses)")
        #expect(past.log.contains("File too large"), "\(past.log)")
        let big = try #require(FileManager.default.enumerator(atPath: past.logDirectory.path)?.compactMap { $0 as? String }
            .first { $0.hasSuffix("/big") }, "no big file")
        let size = try FileManager.default.attributesOfItem(atPath: past.logDirectory.appendingPathComponent(big).path)[.size] as? Int
        #expect(size == 8 << 20)
        await past.runtime.stopAll()
    }
}
