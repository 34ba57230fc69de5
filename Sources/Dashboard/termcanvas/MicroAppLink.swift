import AppModel
import BFFAccess
import CanvasCore
import CanvasUI
import CommandSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HTTPClient
import Logging
import PrivateFiles
import ServerSync
import SQLiteFiles

/// The dashboard's link to its micro-apps' data: the sync engine with its cache file, the
/// commands widgets ask of it, and its events reaching the canvas through the app loop.
@MainActor
struct MicroAppLink {
    let sync: ServerSync

    /// - Parameters:
    ///   - remote: The team server of `--bff`, or nil for this user's local one.
    init(paths: Paths, remote: Credential?, mailbox: Mailbox, logger: Logger) {
        let name = paths.syncCache(for: remote)
        var syncLogger = logger
        syncLogger[metadataKey: "component"] = "sync"
        let sync = ServerSync(openCache: {
            do {
                return try Self.openOwnCache(name)
            } catch {
                // The file stays as it is, unsent writes and all; this run keeps nothing offline,
                // and every micro-app pane says why.
                let reason = SQLiteFile.reason(error)
                logger.error("micro-app cache unusable; nothing is kept offline", metadata: ["cache": "\(name.path)", "error": "\(error)"])
                return try SyncCache.inMemory(notKept: reason)
            }
        }, logger: syncLogger, publish: { mailbox.post(.publish($0)) })
        self.sync = sync
    }

    /// Hands the widgets' requests to the sync engine: the commands of micro-apps' widgets.
    func handle(_ request: any WidgetRequest) {
        guard let command = request as? AppCommand else { return }
        sync.send(command)
    }

    /// Opens the first cache file of `name` no other dashboard holds: `local.sqlite`, then
    /// `local-2.sqlite`, and so on.
    ///
    /// One process owns a cache, outbox included: two dashboards sending one outbox would each
    /// apply the other's answers to a cache whose canvas never hears of them. A second dashboard
    /// of the same user gets a cache of its own, which the next start may reuse, unsent writes and all.
    nonisolated static func openOwnCache(_ name: URL) throws -> SyncCache {
        try PrivatePath.makeDirectory(name.deletingLastPathComponent())
        for slot in 1...9 {
            let stem = slot == 1 ? name.path : "\(name.path)-\(slot)"
            guard let lock = try InstanceLock.acquire(URL(fileURLWithPath: stem + ".lock")) else { continue }
            return try SyncCache.open(at: URL(fileURLWithPath: stem + ".sqlite"), holding: lock)
        }
        throw BFFAccessError.io(path: name.path, errno: EWOULDBLOCK)
    }
}

extension BFFTarget {
    /// A client of the server this target reaches.
    /// - Parameter configuration: timeouts and limits; the defaults unless a command waits longer
    ///   (a subscription's first reading).
    func client(logger: Logger, configuration: HTTPClient.Configuration = .init()) -> HTTPClient {
        switch self {
        case .local(let connection):
            HTTPClient(endpoint: .unixSocket(connection.socketPath), token: connection.token, configuration: configuration, logger: logger)
        case .remote(let credential):
            HTTPClient(endpoint: HTTPClient.Endpoint(baseURL: credential.server, trustedCertificates: credential.trustedCertificates),
                       token: credential.token, configuration: configuration, logger: logger)
        }
    }
}

extension Paths {
    /// The micro-apps' offline cache, one per server and user, without its extension (see
    /// `MicroAppLink.openOwnCache`).
    func syncCache(for remote: Credential?) -> URL {
        dataDirectory.appendingPathComponent("cache").appendingPathComponent(Self.serverKey(for: remote))
    }

    /// A name for the server a dashboard talks to and its user: `local` for this user's local
    /// server, else the server's file stem and the user (what keeps their caches and shared
    /// canvases' copies apart).
    static func serverKey(for remote: Credential?) -> String {
        remote.flatMap { credential in (try? ServerURL(credential.server)).map { "\($0.fileStem)-\(credential.user)" } } ?? "local"
    }
}
