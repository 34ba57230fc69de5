import AppModel
import CanvasCore
import CanvasUI
import FoundationEssentials
import HTTPClient
import Logging
import MicroAppHost
import MicroAppProtocol
import ServerAPI
import Synchronization
import Widgets

/// Reaches remote apps' sessions through the server's proxy (`/api/apps/ID/sessions`) with the
/// dashboard's client, once it is connected; and keeps the server's grant of each remote app
/// the user allowed, which the proxy and the app's webhooks go by.
package final class RemoteRelay: RemoteAppTransport, AppGrants {
    private let client = Mutex<HTTPClient?>(nil)
    private let local: StoredGrants
    /// A session's stream reconnects never (a lost session is opened afresh by its supervisor);
    /// an entry silent this long is taken for gone.
    package static let stream = HTTPClient.ReconnectPolicy(initialDelay: .seconds(1), maxDelay: .seconds(1), idleTimeout: .seconds(600))

    package init(local: StoredGrants) {
        self.local = local
    }

    package func use(_ client: HTTPClient) {
        self.client.withLock { $0 = client }
    }

    private func connected() throws(RemoteAppFailure) -> HTTPClient {
        guard let client = client.withLock({ $0 }) else { throw RemoteAppFailure("the micro-app server is not connected yet") }
        return client
    }

    package func open(app: String, initialize: [UInt8]) async throws(RemoteAppFailure) -> (session: String, answer: [UInt8]) {
        let client = try connected()
        do {
            let response = try await client.send(HTTPClient.Request(.post, APIPath.appSessions(app),
                                                                    headers: [(name: "Content-Type", value: "application/json")],
                                                                    body: initialize))
            let opened = try HTTPClient.decode(RemoteSession.self, from: response)
            return (opened.session, Array(opened.answer.utf8))
        } catch {
            throw Self.failure(error)
        }
    }

    package func lines(app: String, session: String) -> AsyncStream<RemoteLine> {
        guard let client = client.withLock({ $0 }) else { return AsyncStream { $0.yield(.ended("not connected")); $0.finish() } }
        let updates = client.events(path: APIPath.appSessionEvents(app, session), reconnect: Self.stream)
        return AsyncStream { continuation in
            let task = Task {
                for await update in updates {
                    switch update {
                    case .connected:
                        continue
                    case .event(let event):
                        continuation.yield(.line(Array(event.data.utf8)))
                    case .disconnected(let error):
                        continuation.yield(.ended(Self.failure(error).description))
                        continuation.finish()
                        return
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    package func send(app: String, session: String, line: [UInt8]) async throws(RemoteAppFailure) {
        let client = try connected()
        do {
            _ = try await client.send(HTTPClient.Request(.post, APIPath.appSessionMessages(app, session),
                                                         headers: [(name: "Content-Type", value: "application/json")], body: line))
        } catch {
            throw Self.failure(error)
        }
    }

    package func close(app: String, session: String) async {
        guard let client = client.withLock({ $0 }) else { return }
        try? await client.delete(APIPath.appSession(app, session))
    }

    // MARK: Grants

    package func isGranted(_ app: InstalledApp) async -> Bool {
        guard await local.isGranted(app) else { return false }
        if app.isRemote { await grantOnServer(app.id) }
        return true
    }

    package func grant(_ app: InstalledApp) async throws {
        try await local.grant(app)
        if app.isRemote { await grantOnServer(app.id) }
    }

    /// Tells the server (idempotent); when it is not reachable yet, the session's opening will
    /// fail and be retried, and the next check grants it.
    private func grantOnServer(_ id: String) async {
        guard let client = client.withLock({ $0 }) else { return }
        do {
            _ = try await client.send(HTTPClient.Request(.put, APIPath.registryGrant(id)))
        } catch {
            local.logger.warning("could not grant a remote app on the server", metadata: ["app": "\(id)", "error": "\(error)"])
        }
    }

    /// What the pane says: the server's reason when it gave one.
    private static func failure(_ error: HTTPClientError) -> RemoteAppFailure {
        switch error {
        case .status(_, _, let apiError?): RemoteAppFailure(apiError.error)
        case .unreachable, .cancelled: RemoteAppFailure("the micro-app server is unreachable")
        case .timeout: RemoteAppFailure("the micro-app server is too slow")
        default: RemoteAppFailure("\(error)")
        }
    }
}

package extension WidgetCatalog {
    /// The remote apps of the registry as catalog entries whose panes run through `runtime`: all
    /// of them mountable (a pane keeps its app while it is down), those not down offered.
    @MainActor
    static func remote(_ apps: [MicroAppInfo], runtime: MicroAppRuntime) -> (offered: [WidgetDescriptor], all: [WidgetDescriptor]) {
        var offered: [WidgetDescriptor] = []
        var all: [WidgetDescriptor] = []
        for info in apps where info.kind == .remote {
            guard let manifest = info.manifest else { continue }
            let app = InstalledApp(remote: AppManifest(remote: manifest))
            let health = info.health ?? AppHealth(state: .unknown)
            var descriptor = MicroAppWidget.descriptor(for: app, health: health, connect: { runtime.connection(for: $0) })
            descriptor = WidgetDescriptor(kind: descriptor.kind, name: descriptor.name,
                                          summary: "\(info.description) · remote, \(health.label())", version: info.version,
                                          commands: descriptor.commands, make: descriptor.make)
            all.append(descriptor)
            if health.state != .down { offered.append(descriptor) }
        }
        return (offered, all)
    }
}
