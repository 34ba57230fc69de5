import AppModel
import CanvasCore
import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import LayoutStore
import Logging
import MicroAppHost
import MicroAppProtocol
import Synchronization
import Widgets

/// The micro-apps installed on this machine, as the dashboard offers them.
package struct InstalledApps {
    package let apps: [InstalledApp]
    /// A message for each manifest that could not be read.
    package let problems: [String]

    package init(paths: Paths) {
        (apps, problems) = AppFolders.standard(configDirectory: paths.configDirectory, executable: Paths.executable).scan()
    }

    package init(apps: [InstalledApp]) {
        self.apps = apps
        problems = []
    }

    /// Catalog entries whose panes run their app through `runtime`.
    @MainActor
    package func descriptors(runtime: MicroAppRuntime) -> [WidgetDescriptor] {
        apps.map { MicroAppWidget.descriptor(for: $0, connect: { runtime.connection(for: $0) }) }
    }

    /// Catalog entries whose panes never start their app (`termcanvas render`).
    @MainActor
    package var inertDescriptors: [WidgetDescriptor] {
        apps.map { MicroAppWidget.descriptor(for: $0, connect: { _ in InertConnection() }) }
    }
}

package extension WidgetCatalog {
    /// The built-in widgets, then the installed micro-apps.
    static func standard(apps: [WidgetDescriptor]) -> WidgetCatalog {
        WidgetCatalog(builtIn.descriptors + apps)
    }
}

/// Grants kept in the layout database, by manifest digest (and the sandbox they were given in,
/// `SandboxSupport.grantDigest`).
package struct StoredGrants: AppGrants {
    package let store: LayoutStore
    package let logger: Logger

    package init(store: LayoutStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    package func isGranted(_ app: InstalledApp) async -> Bool {
        do {
            return try store.grant(of: app.id)?.digest == SandboxSupport.current.grantDigest(of: app)
        } catch {
            logger.error("could not read the grant of a micro-app", metadata: ["app": "\(app.id)", "error": "\(error)"])
            return false
        }
    }

    package func grant(_ app: InstalledApp) async throws {
        try store.grant(app: app.id, digest: SandboxSupport.current.grantDigest(of: app))
    }
}

/// Makes micro-apps' `http` calls with the dashboard's client (and so its token) once the server
/// is connected; the token never leaves this process.
package final class BackendRelay: AppBackend {
    private let client = Mutex<HTTPClient?>(nil)
    /// An answer longer than this is refused: it goes back to the app as one protocol line.
    package static let answerLimit = 192 * 1024

    package func use(_ client: HTTPClient) {
        self.client.withLock { $0 = client }
    }

    /// The dashboard's client, once the server is connected.
    package var current: HTTPClient? { client.withLock { $0 } }

    package init() {}

    package func call(_ request: HTTPRequest) async -> Result<HTTPResult, RPCError> {
        guard let client = client.withLock({ $0 }) else {
            return .failure(RPCError(code: RPCError.backendUnavailable, message: "the micro-app server is not connected yet"))
        }
        var body: [UInt8]?
        if let json = request.body, let data = try? JSONEncoder().encode(json) { body = Array(data) }
        let headers = body == nil ? [] : [(name: "Content-Type", value: "application/json")]
        do {
            let response = try await client.send(HTTPClient.Request(HTTPClient.Method(rawValue: request.method), request.path,
                                                                    headers: headers, body: body))
            return Self.answer(status: response.status, body: response.body)
        } catch .status(let code, let body, _) {
            return Self.answer(status: code, body: body)  // the app reads the server's refusal itself
        } catch {
            return .failure(RPCError(code: RPCError.backendUnavailable, message: "\(error)"))
        }
    }

    private static func answer(status: Int, body: [UInt8]) -> Result<HTTPResult, RPCError> {
        guard body.count <= answerLimit else {
            return .failure(RPCError(code: RPCError.backendUnavailable, message: "the answer is over \(answerLimit) bytes"))
        }
        let json = (try? JSONDecoder().decode(JSONValue.self, from: Data(body))) ?? .string(String(decoding: body, as: UTF8.self))
        return .success(HTTPResult(status: status, body: json))
    }
}

/// A connection that never starts its app: `termcanvas render` draws panes, it runs nothing.
package final class InertConnection: MicroAppConnection {
    package func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) {}
    package func send(_ message: HostToApp) {}
    package func takeUpdates() -> AppUpdates { AppUpdates() }
    package func grant() {}
    package func refuse() {}
    package func restart() {}
    package func stop() {}
}
