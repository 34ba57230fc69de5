import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerHTTP
@testable import ServerRoutes
import Testing
@testable import BFF

/// Runs documented operations against a live server and records every mismatch as a test issue.
struct Conformance {
    let client: any TestClientProtocol
    let checker: SchemaChecker
    let token: String
    /// The hook secret of the app the webhook route is tried on (`{app}`).
    let hook: (app: String, secret: String)
    /// The id each collection's POST returned, for the paths below it; given for collections
    /// whose items are made otherwise (the registry's, by PUT).
    private var createdIDs: [String: String]
    private(set) var checkedOperations = 0
    /// The remote app session the proxy's `{session}` paths use, once opened.
    private var session: String?
    /// A remote session's event stream, held open to the end: the stream's end ends the session,
    /// which its later operations (a message, the close) still need. (Dropped at once, the server
    /// noticed the end at its next write, mid-test under load.)
    private var openStreams: [SSEReader] = []
    /// Bodies sent instead of an operation's example (`post /api/calendars/subscriptions`: a
    /// URL served on loopback, where the example's host is not reachable from a test).
    let bodies: [String: String]

    init(client: any TestClientProtocol, checker: SchemaChecker, token: String, knownIDs: [String: String] = [:],
         hook: (app: String, secret: String), bodies: [String: String] = [:]) {
        self.client = client
        self.checker = checker
        self.token = token
        self.hook = hook
        self.bodies = bodies
        createdIDs = knownIDs
    }

    /// What the example of an operation that needs a person at the identity provider gets here:
    /// the example's device login is not under way (SingleSignOnTests signs in for real), and no
    /// provider listens at the server's issuer.
    static let withoutAPerson = ["post /api/auth/sso": 404, "post /api/auth/sso/device": 502]

    mutating func check(_ operation: OpenAPIConformanceTests.Operation) async throws {
        checkedOperations += 1
        let uri = operation.path.contains("{sessionID}") ? try await anotherSession(of: operation) : try uri(for: operation)
        let success = try Self.withoutAPerson["\(operation.method) \(operation.path)"]
            ?? #require(operation.successStatus, "\(operation) documents no 2xx response")
        let successContent = operation.response(success)?["content"]?.object ?? [:]
        if successContent.keys.contains("text/event-stream") {
            try await checkEventStream(operation, uri: uri)
        } else {
            let key = "\(operation.method) \(operation.path)"
            let response = try await send(operation, uri: uri, token: operation.isSecured ? token : nil, body: bodies[key] ?? example(operation))
            try expect(response, operation, status: success)
            if operation.method == "post", let id = try? JSONValue.json(Data(response.body.readableBytesView))["id"] {
                // A subscription is made below the calendars it is one of.
                let collection = operation.path == APIPath.calendarSubscriptions ? APIPath.calendars : operation.path
                createdIDs[collection] = id.string ?? id.number.map { String(Int64($0)) }
            }
            if operation.method == "post", let session = try? JSONValue.json(Data(response.body.readableBytesView))["session"]?.string {
                self.session = session
            }
        }
        if operation.isSecured {
            try expect(try await send(operation, uri: uri, token: nil, body: example(operation)), operation, status: 401)
        }
        if operation.documentedStatuses.contains("404"), operation.path.contains("{id}") {
            let unknown = operation.path.hasPrefix("/api/chat/") ? "no-such-channel" : "987654321"
            let missing = operation.path.replacingOccurrences(of: "{id}", with: unknown)
                .replacingOccurrences(of: "{session}", with: "no-such-session").replacingOccurrences(of: "{user}", with: "bob")
                .replacingOccurrences(of: "{version}", with: "0")
            try expect(try await send(operation, uri: missing, token: token, body: example(operation)), operation, status: 404)
        }
        if let required = requestSchema(operation)?["required"]?.array?.compactMap(\.string), !required.isEmpty {
            let response = try await send(operation, uri: uri, token: token, body: "{}")
            try expect(response, operation, status: 400)
            let field = try JSONValue.json(Data(response.body.readableBytesView))["field"]?.string
            #expect(field.map(required.contains) == true, "\(operation) with {}: field \(field ?? "nil") is not one of \(required)")
        }
    }

    /// The path with `{sessionID}` filled with a session of the caller's started for it (ending
    /// their own would end the run).
    private func anotherSession(of operation: OpenAPIConformanceTests.Operation) async throws -> String {
        let login = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "alice", password: "correct horse"))
        #expect(login.status == .ok)
        let sessions = try await client.send(.get, APIPath.authSessions, token: token).decode([SessionInfo].self)
        let other = try #require(sessions.first { !$0.current }, "\(operation): no other session of alice's")
        return operation.path.replacingOccurrences(of: "{sessionID}", with: other.id)
    }

    /// The package a registry's package paths are tried on, published at 1.0.0 (`{version}`).
    static let package = "sysmon"

    /// Whether the operation is about a package: its versions, publishers or installs.
    private static func isPackage(_ operation: OpenAPIConformanceTests.Operation) -> Bool {
        ["/versions", "/publishers", "/installs"].contains { operation.path.hasPrefix(APIPath.registryApps + "/{id}" + $0) }
    }

    /// The path with `{id}` filled from the POST to the collection above it (`general` for chat),
    /// `{app}` with the hook's app, `{user}` with bob (a canvas's member) and `{version}` with 0 (a
    /// canvas as created); a package's path with its id and version.
    private func uri(for operation: OpenAPIConformanceTests.Operation) throws -> String {
        if operation.isSignedHook { return operation.path.replacingOccurrences(of: "{app}", with: hook.app) }
        if Self.isPackage(operation) {
            return operation.path.replacingOccurrences(of: "{id}", with: Self.package).replacingOccurrences(of: "{version}", with: "1.0.0")
                .replacingOccurrences(of: "{user}", with: "bob")
        }
        var path = operation.path.replacingOccurrences(of: "{user}", with: "bob").replacingOccurrences(of: "{version}", with: "0")
        if path.contains("{session}") {
            path = path.replacingOccurrences(of: "{session}", with: try #require(session, "\(operation): no session was opened"))
        }
        guard let range = path.range(of: "{id}") else { return path }
        let collection = String(path[..<range.lowerBound].dropLast())
        let id = try #require(createdIDs[collection], "\(operation): nothing was created at \(collection) to address")
        return path.replacingCharacters(in: range, with: id)
    }

    private func requestSchema(_ operation: OpenAPIConformanceTests.Operation) -> JSONValue? {
        guard let schema = operation.spec["requestBody"]?["content"]?["application/json"]?["schema"] else { return nil }
        if let reference = schema["$ref"]?.string {
            return reference.split(separator: "/").dropFirst().reduce(checker.document as JSONValue?) { $0?[String($1)] }
        }
        return schema
    }

    private func example(_ operation: OpenAPIConformanceTests.Operation) -> String? {
        operation.spec["requestBody"]?["content"]?["application/json"]?["example"]?.jsonText
    }

    /// Sends the operation; a webhook is signed instead of carrying the token (unsigned without one);
    /// a package's publish sends its next version's archive; an iCalendar import its example.
    private func send(_ operation: OpenAPIConformanceTests.Operation, uri: String, token: String?, body: String?) async throws -> TestResponse {
        let method = HTTPRequest.Method(operation.method.uppercased())!
        if operation.spec["requestBody"]?["content"]?["application/x-tar"] != nil {
            var headers: HTTPFields = [.contentType: "application/x-tar"]
            if let token { headers[.authorization] = "Bearer \(token)" }
            let archive = try PackageTests.archive(Self.package, version: "2.0.0")
            headers[HTTPField.Name(PackageSignature.header)!] = try PackageTests.signatureHeader(try PackageTests.signature(archive, id: Self.package))
            return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: archive))
        }
        if let calendar = operation.spec["requestBody"]?["content"]?["text/calendar"]?["example"]?.string {
            var headers: HTTPFields = [.contentType: "text/calendar"]
            if let token { headers[.authorization] = "Bearer \(token)" }
            return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: calendar))
        }
        guard operation.isSignedHook else { return try await client.send(method, uri, token: token, rawBody: body) }
        var headers: HTTPFields = [.contentType: "application/json"]
        if token != nil {
            let timestamp = String(Int(Date().timeIntervalSince1970))
            headers[HookSignature.timestampHeader] = timestamp
            headers[HookSignature.header] = HookSignature.sign(Data((body ?? "").utf8), timestamp: timestamp, secret: hook.secret)
        }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// The status is the one expected and documented, and the body has the documented shape.
    private func expect(_ response: TestResponse, _ operation: OpenAPIConformanceTests.Operation, status: Int) throws {
        let body = String(buffer: response.body)
        #expect(response.status.code == status, "\(operation): \(response.status.code) \(body.prefix(300))")
        #expect(response.headers[RequestIDMiddleware<BFFRequestContext>.header] != nil, "\(operation): no X-Request-Id")
        let documented = try #require(operation.response(status), "\(operation): \(status) is not documented")
        let resolved = documented["$ref"]?.string.flatMap { reference in
            reference.split(separator: "/").dropFirst().reduce(checker.document as JSONValue?) { $0?[String($1)] }
        } ?? documented
        guard let content = resolved["content"]?.object else {
            #expect(response.body.readableBytes == 0, "\(operation): \(status) documents no body but got \(body.prefix(100))")
            return
        }
        let contentType = response.headers[.contentType] ?? ""
        let match = content.first { contentType.hasPrefix($0.key) }
        #expect(match != nil, "\(operation): content type \(contentType) is not one of \(content.keys.sorted())")
        guard let (mediaType, media) = match, mediaType == "application/json", let schema = media["schema"] else { return }
        let problems = checker.problems(try JSONValue.json(Data(response.body.readableBytesView)), schema)
        #expect(problems.isEmpty, "\(operation) \(status): \(problems)")
    }

    private mutating func checkEventStream(_ operation: OpenAPIConformanceTests.Operation, uri: String) async throws {
        let stream = try SSEReader(port: try #require(client.port), token: token, path: uri)
        let head = try await stream.readHead()
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(operation): \(head)")
        #expect(head.lowercased().contains("content-type: text/event-stream"), "\(operation): \(head)")
        if operation.path.contains("{session}") { openStreams.append(stream) }
    }
}
