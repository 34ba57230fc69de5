import BFF
import BFFTesting
import CanvasCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServerAPI
import ServerHTTP
import ServerStore

/// A BFF on a temporary data directory and database (SQLite, or PostgreSQL: see `TestDatabase`):
/// users made up front, then the real server on a loopback port.
struct BFFHarness {
    static let secret = "bff-tests-secret-0123456789abcdef0123456789"
    let directory: URL
    /// Nil: `bff.sqlite` in `directory`.
    let database: DatabaseLocation?

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bff-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try await TestDatabase.make()
    }

    /// Rate limits are off unless a test is about them, so tests can send as fast as they like.
    func configuration(secret: String? = Self.secret, rateLimits: RateLimits = .off, apps: Set<ServerApp> = Set(ServerApp.allCases)) -> BFFConfiguration {
        // A few connections each: many tests run at once on one PostgreSQL server.
        BFFConfiguration(apps: apps, dataDirectory: directory, database: database, databaseConnections: 4, migrateDatabase: true,
                         jwtSecret: secret, bcryptCost: 4, rateLimits: rateLimits)
    }

    /// Runs `body` with the store the server opens, as another process (`termcanvas-bff user`) would.
    func withStore<T: Sendable>(_ body: (BFFStore) async throws -> T) async throws -> T {
        try await BFFStores.with(configuration().databaseLocation, bcryptCost: 4, migrate: true, body)
    }

    /// Adds users straight to the database the server will open.
    func addUsers(_ names: String...) async throws {
        try await withStore { store in
            for name in names { _ = try await store.addUser(name: name, password: "pw-\(name)") }
        }
    }

    /// Adds admins (who may publish micro-apps), as `addUsers` does users.
    func addAdmins(_ names: String...) async throws {
        try await withStore { store in
            for name in names { _ = try await store.addUser(name: name, password: "pw-\(name)", isAdmin: true) }
        }
    }

    /// Runs `body` against a freshly built server on this directory, over real HTTP on loopback.
    func withServer<Value: Sendable>(
        secret: String? = Self.secret,
        logs: LogCapture? = nil,
        configuration: BFFConfiguration? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var logger = logs?.logger() ?? Logger(label: "bff-tests")
        if logs == nil { logger.logLevel = .warning }
        var configuration = configuration ?? self.configuration(secret: secret)
        configuration.port = 0
        let app = try await buildApplication(configuration, logger: logger)
        return try await app.test(.live, body)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
        TestDatabase.remove(database)
    }
}

extension TestClientProtocol {
    /// Sends a request with an optional raw body (sent as JSON) and bearer token.
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, rawBody: String? = nil) async throws -> TestResponse {
        try await send(method, uri, token: token, data: rawBody.map { Data($0.utf8) })
    }

    /// Sends `json` encoded as the body, with an optional bearer token.
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: some Encodable) async throws -> TestResponse {
        try await send(method, uri, token: token, data: try JSONEncoder().encode(json))
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, token: String?, data: Data?) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let data {
            body = ByteBuffer(bytes: data)
            headers[.contentType] = "application/json"
        }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }

    /// A token for a user the harness made (password `pw-NAME`).
    func token(for name: String) async throws -> String {
        let response = try await send(.post, APIPath.authToken, json: TokenRequest(username: name, password: "pw-\(name)"))
        guard response.status == .ok else { throw HarnessError.status(response.status.code, String(buffer: response.body)) }
        return try response.decode(TokenResponse.self).token
    }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
    }

    var apiError: APIError? { try? decode(APIError.self) }
}

enum HarnessError: Error {
    case status(Int, String)
}
