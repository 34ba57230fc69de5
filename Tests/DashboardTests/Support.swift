import CalendarTime
import CanvasCore
import CanvasFiles
import CanvasStyle
import CanvasUI
import Foundation
import LayoutStore
import Logging
@testable import termcanvas
import Testing
import TestSupport
import Widgets

// The real pieces, put together as the dashboard does: a SQLite layout store in a fresh temporary
// directory, the repository's preset layouts and themes, a `DashboardLibrary` and a `CanvasHost`.
// The host's IO runs off the main actor; its results come back as `HostMessage`s, which the
// helpers below wait for (with a timeout) and hand to the host, as the app loop would.

enum Repo {
    /// The repository root: this file is `Tests/DashboardTests/Support.swift`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let layouts = root.appendingPathComponent("layouts")
    static let themes = root.appendingPathComponent("themes")
    /// The shipped presets behind the tests' own `default` (`Fixtures/layouts/default.yaml`, two
    /// panes that need no server), as a user's own layouts sit in front of the shipped ones.
    static let presets = PresetFiles(layoutFolders: [fixtures, layouts], themeFolders: [themes])
    static let fixtures = root.appendingPathComponent("Tests/DashboardTests/Fixtures/layouts")

    static func contents(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

enum Fixed {
    static let today = CalendarDate(year: 2026, month: 11, day: 22)!
    static let clock = CanvasClock.fixed(today)
    static let logger = Logger(label: "dashboard-test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let size = Size(width: 100, height: 30)
}

/// A directory of its own for one test, removed when the test is done with it.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("termcanvas-dashboard-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var database: URL { url.appendingPathComponent("data/layouts.sqlite") }
}

/// Collects what the host's IO sends back, so a test can wait for it.
@MainActor
final class Inbox {
    private(set) var pending: [HostMessage] = []
    private let io: HostIO

    init(_ io: HostIO) {
        self.io = io
        Task { @MainActor [weak self] in
            for await message in io.mailbox.messages {
                guard let self else { return }
                self.pending.append(message)
            }
        }
    }

    /// Waits until `count` messages have arrived and takes them, oldest first.
    ///
    /// Messages are collected on the main actor, which `make test`'s first pass shares with
    /// hundreds of main-actor tests: on a loaded 2-core machine they queued behind them for over
    /// 30 s. The bound only matters when a message never comes.
    func take(_ count: Int, timeout: Duration = .seconds(90)) async throws -> [HostMessage] {
        try await eventually("\(count) message(s), not \(pending.count): \(pending)", within: timeout, every: .milliseconds(5)) {
            pending.count >= count
        }
        let taken = Array(pending.prefix(count))
        pending.removeFirst(count)
        return taken
    }

    /// Says whether nothing came back: waits for every read and write asked for to finish, then
    /// for a marker posted after them (the stream keeps its order), so no wait can be too short.
    func isQuiet() async throws -> Bool {
        await io.drain()
        let marker = "inbox marker \(UUID())"
        io.mailbox.post(.notice(.info(marker)))
        var came: [HostMessage] = []
        while true {
            let message = try await take(1)[0]
            if case .notice(let notice) = message, notice.text == marker { return came.isEmpty }
            came.append(message)
        }
    }
}

/// A dashboard on a real store: the host, its library and the store underneath.
@MainActor
final class Rig {
    let directory: TemporaryDirectory
    let store: LayoutStore
    let library: DashboardLibrary
    let host: CanvasHost
    let inbox: Inbox

    /// Starts on `layout` (default: the `default` preset, as a first start does), on the database in
    /// `directory` (default: a fresh one), sent `start` (nil leaves the start to the test).
    init(directory: TemporaryDirectory? = nil, layout: String = "default", theme: Theme = .dark,
         presets: PresetFiles = Repo.presets, ports: HostPorts = HostPorts(), start: HostStart? = HostStart()) throws {
        let directory = try directory ?? TemporaryDirectory()
        self.directory = directory
        let opened = try LayoutStore.open(at: directory.database)
        #expect(opened.recovered == nil)
        store = opened.store
        library = DashboardLibrary(store: store, presets: presets, adaptTheme: { $0 })
        let manager = try CanvasManager(layout: try library.layoutNow(layout))
        host = CanvasHost(manager: manager, catalog: .builtIn, bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock,
                          theme: theme, logger: Fixed.logger, size: Fixed.size, library: library, ports: ports)
        inbox = Inbox(host.io)
        if let start { host.perform(host.update(.start(start))) }
    }

    /// Presses keys that start no IO, or whose IO a test waits for separately.
    func press(_ keys: Key...) {
        for key in keys { host.input(.key(key)) }
    }

    /// Types text, one character a key.
    func type(_ text: String) {
        for character in text { host.input(.key(.char(character))) }
    }

    /// Waits for the next `count` messages of the host's IO and hands them to the host.
    @discardableResult
    func deliver(_ count: Int = 1, timeout: Duration = .seconds(90)) async throws -> [HostMessage] {
        let messages = try await inbox.take(count, timeout: timeout)
        for message in messages { host.deliver(message) }
        return messages
    }

    /// Presses a key and delivers the `count` messages its IO sends back.
    @discardableResult
    func press(_ key: Key, expecting count: Int) async throws -> [HostMessage] {
        host.input(.key(key))
        return try await deliver(count)
    }

    /// Waits for every queued write, so the store can be checked.
    func settle() async {
        await host.io.drain()
    }

    var screen: [String] { host.compose().lines(markingCursor: true) }
    var text: String { host.compose().text(markingCursor: true) }
    var statusBar: String { screen.last ?? "" }

    /// The frames of the panes by pane number, e.g. `[1: (0,0) 5×12]`.
    var frames: [PaneID: Rect] {
        Dictionary(uniqueKeysWithValues: host.manager.panes.map { ($0.id, $0.frame) })
    }

    func storedNames() throws -> [String] {
        try store.summaries().map(\.name)
    }

    func steps(of name: String) throws -> [String] {
        try store.history(named: name).map(\.step)
    }

    func currentStep(of name: String) throws -> Int? {
        try store.history(named: name).firstIndex(where: \.isCurrent)
    }
}

extension HostMessage {
    /// A short name of the message, for expectations.
    var kind: String {
        switch self {
        case .input(let input): "input: \(input)"
        case .layoutsListed: "layoutsListed"
        case .layoutLoaded: "layoutLoaded"
        case .sharedLayoutLoaded: "sharedLayoutLoaded"
        case .shared(_, let news): "shared: \(news)"
        case .historyLoaded: "historyLoaded"
        case .themesListed: "themesListed"
        case .themeLoaded: "themeLoaded"
        case .themeChosen: "themeChosen"
        case .namesListed: "namesListed"
        case .notice(let notice): "notice: \(notice.text)"
        case .publish(let events): "publish: \(events.map { type(of: $0).name.rawValue })"
        case .saved: "saved"
        case .quitSaved(let failure): "quitSaved: \(failure ?? "ok")"
        case .widgetNotified(let pane, _): "widgetNotified: \(pane)"
        case .appGeneration: "appGeneration"
        case .appsReinstalled(let descriptors): "appsReinstalled: \(descriptors.map(\.kind.rawValue))"
        case .appInstalled(let descriptor): "appInstalled: \(descriptor.kind)"
        case .frameShown: "frameShown"
        case .drawn: "drawn"
        case .start: "start"
        case .shutdown: "shutdown"
        }
    }
}

extension Key {
    static let backspace = Key(.backspace)
    static let delete = Key(.delete)
    static let home = Key(.home)
    static let end = Key(.end)
}

/// The pane titles on screen, e.g. `["1 Calendar", "2 Event Log"]`, read from the borders.
func paneTitles(_ lines: [String]) -> [String] {
    let pattern = /[┌┏][─━] (\d [A-Za-z ]+?) [─━]/
    return lines.flatMap { line in line.matches(of: pattern).map { String($0.output.1) } }.sorted()
}

extension CanvasHost {
    /// An input as the app loop hands it over: updated, and what it asks for performed.
    func input(_ input: InputEvent) { perform(update(.input(input))) }

    /// What earlier IO answered, as the app loop hands it over.
    func deliver(_ message: HostMessage) { perform(update(message)) }
}
