import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import BFF

/// Runs documented operations against a live server and records every mismatch as a test issue.
struct Conformance {
    let client: any TestClientProtocol
    let checker: SchemaChecker
    let token: String
    /// The id each collection's POST returned, for the paths below it.
    private var createdIDs: [String: String] = [:]
    private(set) var checkedOperations = 0

    init(client: any TestClientProtocol, checker: SchemaChecker, token: String) {
        self.client = client
        self.checker = checker
        self.token = token
    }

    mutating func check(_ operation: OpenAPIConformanceTests.Operation) async throws {
        checkedOperations += 1
        let uri = try uri(for: operation)
        let success = try #require(operation.successStatus, "\(operation) documents no 2xx response")
        let successContent = operation.response(success)?["content"]?.object ?? [:]
        if successContent.keys.contains("text/event-stream") {
            try await checkEventStream(operation, uri: uri)
        } else {
            let response = try await send(operation, uri: uri, token: operation.isSecured ? token : nil, body: example(operation))
            try expect(response, operation, status: success)
            if operation.method == "post", let id = try? JSONValue.json(Data(response.body.readableBytesView))["id"] {
                createdIDs[operation.path] = id.string ?? id.number.map { String(Int64($0)) }
            }
        }
        if operation.isSecured {
            try expect(try await send(operation, uri: uri, token: nil, body: example(operation)), operation, status: 401)
        }
        if operation.documentedStatuses.contains("404"), operation.path.contains("{id}") {
            let unknown = operation.path.hasPrefix("/api/chat/") ? "no-such-channel" : "987654321"
            let missing = operation.path.replacingOccurrences(of: "{id}", with: unknown)
            try expect(try await send(operation, uri: missing, token: token, body: example(operation)), operation, status: 404)
        }
        if let required = requestSchema(operation)?["required"]?.array?.compactMap(\.string), !required.isEmpty {
            let response = try await send(operation, uri: uri, token: token, body: "{}")
            try expect(response, operation, status: 400)
            let field = try JSONValue.json(Data(response.body.readableBytesView))["field"]?.string
            #expect(field.map(required.contains) == true, "\(operation) with {}: field \(field ?? "nil") is not one of \(required)")
        }
    }

    /// The path with `{id}` filled from the POST to the collection above it (`general` for chat).
    private func uri(for operation: OpenAPIConformanceTests.Operation) throws -> String {
        guard let range = operation.path.range(of: "{id}") else { return operation.path }
        let collection = String(operation.path[..<range.lowerBound].dropLast())
        let id = try #require(createdIDs[collection], "\(operation): nothing was created at \(collection) to address")
        return operation.path.replacingCharacters(in: range, with: id)
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

    private func send(_ operation: OpenAPIConformanceTests.Operation, uri: String, token: String?, body: String?) async throws -> TestResponse {
        try await client.send(HTTPRequest.Method(operation.method.uppercased())!, uri, token: token, rawBody: body)
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

    private func checkEventStream(_ operation: OpenAPIConformanceTests.Operation, uri: String) async throws {
        let stream = try SSEReader(port: try #require(client.port), token: token)
        let head = try await stream.readHead()
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(operation): \(head)")
        #expect(head.lowercased().contains("content-type: text/event-stream"), "\(operation): \(head)")
    }
}
