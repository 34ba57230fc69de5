import AppModel
import Foundation
@testable import MicroAppHost
import MicroAppProtocol
import Synchronization
import Testing
import TestSupport

/// What a supervised session does with the work of an app it let go: a respawn or the end
/// cancels the earlier app's backend calls rather than leaving them to wait on the network.
struct SupervisedSessionTests {
    /// An entry whose app answers `initialize` and then asks for `GET /api/todo/items`.
    final class AskingTransport: RemoteAppTransport {
        let opened = Atomic<Int>(0)

        func open(app: String, initialize: [UInt8]) async throws(RemoteAppFailure) -> (session: String, answer: [UInt8]) {
            let count = opened.add(1, ordering: .relaxed).newValue
            let id = (try? JSONSerialization.jsonObject(with: Data(initialize)) as? [String: Any])?["id"] as? Int ?? 0
            return ("s\(count)", Array(#"{"jsonrpc":"2.0","id":\#(id),"result":{"protocol":"1.0"}}"#.utf8))
        }

        func lines(app: String, session: String) -> AsyncStream<RemoteLine> {
            AsyncStream { continuation in
                continuation.yield(.line(Array(#"{"jsonrpc":"2.0","id":7,"method":"http","params":{"method":"GET","path":"/api/todo/items"}}"#.utf8)))
            }
        }

        func send(app: String, session: String, line: [UInt8]) async throws(RemoteAppFailure) {}
        func close(app: String, session: String) async {}
    }

    /// A backend that never answers until its call is cancelled; counts both.
    final class HangingBackend: AppBackend {
        let started = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)

        func call(_ request: HTTPRequest) async -> Result<HTTPResult, RPCError> {
            started.add(1, ordering: .relaxed)
            try? await Task.sleep(for: .seconds(3600))
            if Task.isCancelled { cancelled.add(1, ordering: .relaxed) }
            return .failure(RPCError(code: RPCError.backendUnavailable, message: "cancelled"))
        }
    }

    private func session(_ backend: HangingBackend, log: URL) -> SupervisedSession {
        SupervisedSession.remote(appID: "deploys", transport: AskingTransport(),
                                        permissions: Permissions(http: ["/api/todo/items"]), limits: AppManifest.Limits(), log: AppLog(url: log, limit: 10_000),
                                        backend: backend)
    }

    private static let parameters = InitializeParams(
        instance: "deploys-1", appID: "deploys", appVersion: "1.0.0", size: ViewSize(width: 20, height: 5), focused: false,
        visible: true, roles: ["text"], settings: .object([:]), state: .null, permissions: .none)

    @Test func aRespawnCancelsTheEarlierAppsBackendCalls() async throws {
        let backend = HangingBackend()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tc-session-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let session = session(backend, log: log)
        session.start(Self.parameters, wake: {})
        // Generous: the backend is called on Swift's two cooperative threads, which `make test`'s
        // first pass keeps busy for seconds at a time.
        try await eventually("the app's call reached the backend", within: .seconds(60)) { backend.started.load(ordering: .relaxed) == 1 }
        session.restart()
        try await eventually("the new app asked again", within: .seconds(60)) { backend.started.load(ordering: .relaxed) == 2 }
        try await eventually("the first app's call was cancelled", within: .seconds(60)) { backend.cancelled.load(ordering: .relaxed) == 1 }
        session.stop()
        await session.finished()
        try await eventually("the end cancels the last app's call", within: .seconds(60)) {
            backend.cancelled.load(ordering: .relaxed) == 2
        }
    }
}
