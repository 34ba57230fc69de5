import BFFAccess
import CanvasUI
import Foundation
import HTTPClient
import Logging
import MicroAppModel
import MicroAppSync

/// The dashboard's link to its micro-apps' data: the sync engine with its cache file, the
/// commands widgets send to it, and its events reaching the canvas through the app loop.
@MainActor
struct MicroAppLink {
    let sync: MicroAppSync
    let commands: AppCommands

    /// - Parameters:
    ///   - remote: The team server of `--bff`, or nil for this user's local one.
    init(paths: Paths, remote: Credential?, effects: Effects, logger: Logger) {
        let file = paths.syncCache(for: remote)
        var syncLogger = logger
        syncLogger[metadataKey: "component"] = "sync"
        let sync = MicroAppSync(openCache: {
            do {
                return try SyncCache.open(at: file)
            } catch {
                logger.error("micro-app cache unusable; nothing is kept offline", metadata: ["file": "\(file.path)", "error": "\(error)"])
                effects.post(.notice(.error("Offline cache unusable (\(file.path)): \(error)")))
                return try! SyncCache.inMemory()  // an in-memory database cannot fail to open
            }
        }, logger: syncLogger, publish: { effects.post(.publish($0)) })
        self.sync = sync
        commands = AppCommands { sync.send($0) }
    }

    /// Hands the sync engine the server `target` reaches.
    nonisolated func connect(to target: BFFTarget, logger: Logger) {
        let client: HTTPClient
        switch target {
        case .local(let connection):
            client = HTTPClient(endpoint: .unixSocket(connection.socketPath), token: connection.token, logger: logger)
        case .remote(let credential):
            client = HTTPClient(endpoint: HTTPClient.Endpoint(baseURL: credential.server), token: credential.token, logger: logger)
        }
        sync.connect(client)
    }
}

extension Paths {
    /// The micro-apps' offline cache: one file per server and user.
    func syncCache(for remote: Credential?) -> URL {
        let name = remote.flatMap { credential in
            (try? ServerURL(credential.server)).map { "\($0.fileStem)-\(credential.user)" }
        } ?? "local"
        return dataDirectory.appendingPathComponent("cache").appendingPathComponent(name + ".sqlite")
    }
}
