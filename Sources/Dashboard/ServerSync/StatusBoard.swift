import AppModel
import CanvasCore
import FoundationEssentials

/// The sync status of each micro-app but its connection (the engine's `ServerLink` says that),
/// and what was last published of it.
struct StatusBoard {
    /// An app's own trouble (its data came back unreadable, the server refused a write), shown
    /// instead of the connection until the app's next good answer.
    var problems: [ServerApp: String] = [:]
    var lastSynced: [ServerApp: Date] = [:]
    var pending: [ServerApp: Int] = [:]
    /// Why the cache file could not be used, shown by every app.
    var notKeptOffline: String?
    private var published: [ServerApp: SyncStatus] = [:]

    func status(of app: ServerApp, connection: SyncStatus.Connection) -> SyncStatus {
        SyncStatus(connection: problems[app].map(SyncStatus.Connection.failing) ?? connection,
                   lastSynced: lastSynced[app], pendingWrites: pending[app] ?? 0, notKeptOffline: notKeptOffline)
    }

    /// The apps whose status changed since the last call, marking them published.
    mutating func changes(force: Bool, connection: SyncStatus.Connection) -> [SyncStatusChanged] {
        ServerApp.allCases.compactMap { app in
            let status = status(of: app, connection: connection)
            guard force || published[app] != status else { return nil }
            published[app] = status
            return SyncStatusChanged(app: app, status: status)
        }
    }
}
