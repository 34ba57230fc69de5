import AppModel
import BFFTesting
import CanvasCore
import Foundation
import HTTPClient
import Logging
import ServerAPI
import ServerSync
import Synchronization
import TestSupport

/// Records what a sync engine publishes and waits for the events a test expects.
final class EventRecorder: Sendable {
    private let events = Mutex<[any BusEvent]>([])
    private let recordedBatches = Mutex<[[any BusEvent]]>([])

    func record(_ batch: [any BusEvent]) {
        events.withLock { $0 += batch }
        recordedBatches.withLock { $0.append(batch) }
    }

    var all: [any BusEvent] { events.withLock { $0 } }
    /// What each `publish` call carried: the canvas takes in one batch before it draws.
    var batches: [[any BusEvent]] { recordedBatches.withLock { $0 } }

    func all<E: BusEvent>(_ type: E.Type) -> [E] {
        all.compactMap { $0 as? E }
    }

    /// The first event of `type` after the first `skipping` such events that satisfies `matching`,
    /// waiting up to `timeout`.
    func first<E: BusEvent>(
        _ type: E.Type, timeout: Duration = .seconds(10), matching: (E) -> Bool = { _ in true },
        sourceLocation: String = #function
    ) async throws -> E {
        try await eventually("a \(E.name) (saw \(all.map { Swift.type(of: $0).name.rawValue }))", within: timeout) {
            all(E.self).first(where: matching)
        }
    }

    /// The latest status published for `app`.
    func status(of app: ServerApp) -> SyncStatus? {
        all(SyncStatusChanged.self).last { $0.app == app }?.status
    }

    /// Waits until the latest status of `app` satisfies `condition`.
    func waitForStatus(of app: ServerApp, timeout: Duration = .seconds(15), _ condition: (SyncStatus) -> Bool) async throws {
        try await eventually("another status of \(app) than \(String(describing: status(of: app)))", within: timeout) {
            status(of: app).map(condition) == true
        }
    }
}

/// A sync engine on a real cache file, with what it publishes recorded.
struct SyncUnderTest {
    let sync: ServerSync
    let recorder: EventRecorder

    /// Opens the cache here, before the engine runs, so a test's temporary directory never
    /// disappears under an engine still starting.
    init(cacheFile: URL) throws {
        let recorder = EventRecorder()
        var logger = Logger(label: "sync-tests")
        logger.logLevel = .critical
        let cache = try SyncCache.open(at: cacheFile)
        sync = ServerSync(openCache: { cache }, logger: logger, publish: recorder.record)
        self.recorder = recorder
    }
}

/// A temporary directory for cache files, removed at the end.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A logged-in client of `server` for `user` (made with `LiveBFF.addUsers`).
func client(of server: RunningBFF, as user: String) async throws -> HTTPClient {
    let client = HTTPClient(endpoint: server.endpoint)
    try await client.logIn(user)
    return client
}

extension LiveBFF {
    /// The endpoint of a port where nothing listens (yet): a stopped server's.
    static func closedPort() async throws -> Int {
        let bff = try LiveBFF()
        defer { bff.remove() }
        let server = try await bff.start()
        await server.stop()
        return server.port
    }
}
