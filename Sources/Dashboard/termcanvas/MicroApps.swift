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
struct InstalledApps {
    let apps: [InstalledApp]
    /// A message for each manifest that could not be read.
    let problems: [String]

    init(paths: Paths) {
        (apps, problems) = AppFolders.standard(configDirectory: paths.configDirectory, executable: Paths.executable).scan()
    }

    init(apps: [InstalledApp]) {
        self.apps = apps
        problems = []
    }

    /// Catalog entries whose panes run their app through `runtime`.
    @MainActor
    func descriptors(runtime: MicroAppRuntime) -> [WidgetDescriptor] {
        apps.map { MicroAppWidget.descriptor(for: $0, connect: { runtime.connection(for: $0) }) }
    }

    /// Catalog entries whose panes never start their app (`termcanvas render`).
    @MainActor
    var inertDescriptors: [WidgetDescriptor] {
        apps.map { MicroAppWidget.descriptor(for: $0, connect: { _ in InertConnection() }) }
    }
}

extension WidgetCatalog {
    /// The built-in widgets, then the installed micro-apps.
    static func standard(apps: [WidgetDescriptor]) -> WidgetCatalog {
        WidgetCatalog(builtIn.descriptors + apps)
    }
}

/// Grants kept in the layout database, by manifest digest (and the sandbox they were given in,
/// `SandboxSupport.grantDigest`).
struct StoredGrants: AppGrants {
    let store: LayoutStore
    let logger: Logger

    func isGranted(_ app: InstalledApp) async -> Bool {
        do {
            return try store.grant(of: app.id)?.digest == SandboxSupport.current.grantDigest(of: app)
        } catch {
            logger.error("could not read the grant of a micro-app", metadata: ["app": "\(app.id)", "error": "\(error)"])
            return false
        }
    }

    func grant(_ app: InstalledApp) async throws {
        try store.grant(app: app.id, digest: SandboxSupport.current.grantDigest(of: app))
    }
}

/// Makes micro-apps' `http` calls with the dashboard's client (and so its token) once the server
/// is connected; the token never leaves this process.
final class BackendRelay: AppBackend {
    private let client = Mutex<HTTPClient?>(nil)
    /// An answer longer than this is refused: it goes back to the app as one protocol line.
    static let answerLimit = 192 * 1024

    func use(_ client: HTTPClient) {
        self.client.withLock { $0 = client }
    }

    /// The dashboard's client, once the server is connected.
    var current: HTTPClient? { client.withLock { $0 } }

    func call(_ request: HTTPRequest) async -> Result<HTTPResult, RPCError> {
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
final class InertConnection: MicroAppConnection {
    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) {}
    func send(_ message: HostToApp) {}
    func takeUpdates() -> AppUpdates { AppUpdates() }
    func grant() {}
    func refuse() {}
    func restart() {}
    func stop() {}
}
