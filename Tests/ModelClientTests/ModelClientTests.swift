import BFFTesting
import Foundation
@testable import ModelClient
import Synchronization
import Testing

/// The model client against a scripted OpenAI-compatible server on loopback (`RawServer`): each
/// connection gets the answer its index picks.
@Suite("ModelClient: streamed answers, retries and errors from an OpenAI-compatible endpoint")
struct ModelClientTests {
    static let key = "sk-test-5eCr3T"
    static let prompt = "a stopwatch that counts laps"

    static func client(_ server: RawServer, limits: ModelClient.Limits = ModelClient.Limits(), capture: LogCapture = LogCapture()) -> ModelClient {
        ModelClient(settings: ModelSettings(baseURL: "http://127.0.0.1:\(server.port)/v1", model: "llama-test", keyVariable: "TC_TEST_KEY"),
                    key: key, limits: limits, logger: capture.logger())
    }

    static func events(_ pieces: [String]) -> String {
        pieces.map { piece in
            let chunk = #"{"choices":[{"index":0,"delta":{"content":\#(json(piece))},"finish_reason":null}]}"#
            return "data: \(chunk)\n\n"
        }.joined() + "data: [DONE]\n\n"
    }

    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// Writes an event stream in pieces, as a model does.
    static func stream(_ connection: RawConnection, _ pieces: [String]) {
        connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        for piece in pieces {
            connection.write(events([piece]).replacingOccurrences(of: "data: [DONE]\n\n", with: ""))
            Thread.sleep(forTimeInterval: 0.02)
        }
        connection.write("data: [DONE]\n\n")
        connection.close()
    }

    @Test func aStreamedAnswerArrivesPieceByPieceWithTheKeyAndNothingSecretIsLogged() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            Self.stream(connection, ["id: ", "demo\n", "name: Demo"])
        }
        defer { server.stop() }
        let capture = LogCapture()
        let pieces = Mutex<[String]>([])
        let answer = try await Self.client(server, capture: capture).complete([ChatMessage(.user, Self.prompt)]) { piece in
            pieces.withLock { $0.append(piece) }
        }
        #expect(answer == "id: demo\nname: Demo")
        #expect(pieces.withLock { $0 } == ["id: ", "demo\n", "name: Demo"])
        let head = try #require(server.requests.first)
        #expect(head.hasPrefix("POST /v1/chat/completions HTTP/1.1"))
        #expect(head.contains("Authorization: Bearer \(Self.key)"))
        #expect(head.contains("Content-Type: application/json"))
        let logged = capture.lines.joined(separator: "\n")
        #expect(logged.contains("model answer"))
        for secret in [Self.key, Self.prompt, "Demo"] { #expect(!logged.contains(secret), "\(secret) logged: \(logged)") }
    }

    @Test func chunksWithoutTextAreSkipped() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            connection.write(#"data: {"choices":[{"delta":{"role":"assistant"}}]}"# + "\n\n")
            connection.write(Self.events(["text"]))
            connection.write(#"data: {"usage":{"total_tokens":12}}"# + "\n\n")
            connection.close()
        }
        defer { server.stop() }
        #expect(try await Self.client(server).complete([ChatMessage(.user, "hi")]) == "text")
    }

    @Test func aServerThatIgnoresStreamingAnswersInOnePiece() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", headers: ["Content-Type: application/json"],
                               body: #"{"choices":[{"index":0,"message":{"role":"assistant","content":"whole"}}]}"#)
        }
        defer { server.stop() }
        #expect(try await Self.client(server).complete([ChatMessage(.user, "hi")]) == "whole")
    }

    @Test func a429IsTriedAgainAfterItsRetryAfter() async throws {
        let server = try RawServer { connection, index in
            connection.readRequest()
            if index == 0 {
                connection.respond(status: "429 Too Many Requests", headers: ["Retry-After: 1", "Content-Type: application/json"],
                                   body: #"{"message":"slow down"}"#)
            } else {
                Self.stream(connection, ["ok"])
            }
        }
        defer { server.stop() }
        let started = ContinuousClock.now
        #expect(try await Self.client(server).complete([ChatMessage(.user, "hi")]) == "ok")
        #expect(ContinuousClock.now - started >= .milliseconds(950))
        #expect(server.connections == 2)
    }

    @Test func aRetryAfterTooLongIsNotWaitedForAndTheErrorSaysHowLong() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "429 Too Many Requests", headers: ["Retry-After: 3600"])
        }
        defer { server.stop() }
        // Waiting at all would take the longest wait (20 s) or the hour asked; a loaded machine answers in well under 10 s.
        let limits = ModelClient.Limits(longestWait: .seconds(20))
        let started = ContinuousClock.now
        let error = await #expect(throws: ModelError.self) { try await Self.client(server, limits: limits).complete([ChatMessage(.user, "hi")]) }
        #expect(error == .busy(status: 429, retryAfterSeconds: 3600))
        #expect(error?.description.contains("3600 s") == true)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(server.connections == 1)
    }

    @Test func serverErrorsAreTriedThreeTimesInAll() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "503 Service Unavailable", headers: ["Retry-After: 0"])
        }
        defer { server.stop() }
        await #expect(throws: ModelError.busy(status: 503, retryAfterSeconds: 0)) {
            try await Self.client(server).complete([ChatMessage(.user, "hi")])
        }
        #expect(server.connections == 3)
    }

    @Test func anEndpointThatNeverAnswersTimesOut() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        let limits = ModelClient.Limits(attemptTimeout: .seconds(5), idleTimeout: .milliseconds(500))
        let started = ContinuousClock.now
        await #expect(throws: ModelError.timeout(seconds: 1)) { try await Self.client(server, limits: limits).complete([ChatMessage(.user, "hi")]) }
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test func aStreamThatStopsHalfwayTimesOutWithoutATryAgain() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + Self.events(["half"]).replacingOccurrences(of: "data: [DONE]\n\n", with: ""))
            connection.waitForClose()
        }
        defer { server.stop() }
        let limits = ModelClient.Limits(idleTimeout: .milliseconds(500))
        await #expect(throws: ModelError.timeout(seconds: 1)) { try await Self.client(server, limits: limits).complete([ChatMessage(.user, "hi")]) }
        #expect(server.connections == 1)
    }

    @Test(arguments: [
        ("401 Unauthorized", #"{"error":{"message":"invalid api key"}}"#, ModelError.keyRefused(variable: "TC_TEST_KEY", status: 401)),
        ("404 Not Found", #"{"error":{"message":"The model llama-test does not exist"}}"#,
         ModelError.unknownModel("llama-test", message: "The model llama-test does not exist")),
        ("400 Bad Request", #"{"message":"messages must not be empty"}"#, ModelError.refused(status: 400, message: "messages must not be empty")),
        ("400 Bad Request", #"{"message":"This model's maximum context length is 8192 tokens"}"#,
         ModelError.refused(status: 400, message: "This model's maximum context length is 8192 tokens")),
        ("400 Bad Request", #"{"error":{"message":"no such thing","code":"model_not_found"}}"#,
         ModelError.unknownModel("llama-test", message: "no such thing")),
    ])
    func refusalsSayWhatToFix(status: String, body: String, expected: ModelError) async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: status, headers: ["Content-Type: application/json"], body: body)
        }
        defer { server.stop() }
        let capture = LogCapture()
        await #expect(throws: expected) { try await Self.client(server, capture: capture).complete([ChatMessage(.user, "hi")]) }
        #expect(server.connections == 1)
        #expect(!expected.description.contains(Self.key))
        // The log has the kind of refusal, never the endpoint's words (they may echo the prompt).
        let logged = capture.lines.joined(separator: "\n")
        #expect(logged.contains("\"outcome\": \(expected.kind)"), "\(logged)")
        #expect(!logged.contains(expected.description) && !logged.contains("tokens") && !logged.contains("such thing"), "\(logged)")
    }

    /// Issue 55, item 15: the answers of a LiteLLM proxy, as it gives them, each said as what to
    /// fix: a key it does not know (`400 … No connected db.`), none sent, a model it has not, and
    /// the model server behind it down (a 500 on every try, not "busy").
    @Test(arguments: [
        (true, "400 Bad Request", #"{"error":{"message":"Authentication Error, No connected db.","type":"auth_error","param":"None","code":"400"}}"#,
         ModelError.keyRefused(variable: "TC_TEST_KEY", status: 400), 1, "check the key in TC_TEST_KEY"),
        (false, "500 Internal Server Error", #"{"error":{"message":"Authentication Error, No api key passed in.","type":"auth_error","param":"None","code":"500"}}"#,
         ModelError.keyNeeded(status: 500), 1, "set keyVariable (an environment variable's name) or keyFile in ai.yaml"),
        (true, "400 Bad Request",
         #"{"error":{"message":"{'error': '/chat/completions: Invalid model name passed in model=llama-test. Call `/v1/models` to view available models for your key.'}","type":"None","param":"None","code":"400"}}"#,
         ModelError.unknownModel("llama-test", message: "{'error': '/chat/completions: Invalid model name passed in model=llama-test. Call `/v1/models` to view available models for your key.'}"),
         1, "set model in ai.yaml"),
        (true, "500 Internal Server Error",
         #"{"error":{"message":"litellm.APIConnectionError: OpenAIException - Connection error. Received Model Group=local\nAvailable Model Group Fallbacks=None","type":null,"param":null,"code":"500"}}"#,
         ModelError.upstreamUnreachable(status: 500, message: "litellm.APIConnectionError: OpenAIException - Connection error. Received Model Group=local\nAvailable Model Group Fallbacks=None"),
         3, "is the model server behind it running?"),
    ] as [(Bool, String, String, ModelError, Int, String)])
    func aLiteLLMProxysAnswersNameTheFix(withKey: Bool, status: String, body: String, expected: ModelError, tries: Int, fix: String) async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: status, headers: ["Content-Type: application/json"], body: body)
        }
        defer { server.stop() }
        let client = ModelClient(settings: ModelSettings(baseURL: "http://127.0.0.1:\(server.port)/v1", model: "llama-test", keyVariable: "TC_TEST_KEY"),
                                 key: withKey ? Self.key : nil, limits: ModelClient.Limits(longestWait: .milliseconds(50)))
        await #expect(throws: expected) { try await client.complete([ChatMessage(.user, "hi")]) }
        #expect(server.connections == tries)
        #expect(expected.description.contains(fix), "\(expected)")
        #expect(!expected.description.contains("busy"))
    }

    /// The idle limit is `timeout` in ai.yaml, and the error names it.
    @Test func theIdleLimitIsTheSettingsAndTheErrorSaysHowToRaiseIt() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        let settings = ModelSettings(baseURL: "http://127.0.0.1:\(server.port)/v1", model: "m", keyVariable: nil, timeout: .seconds(1))
        let started = ContinuousClock.now
        let error = await #expect(throws: ModelError.self) { try await ModelClient(settings: settings, key: nil).complete([ChatMessage(.user, "hi")]) }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(error == .timeout(seconds: 1))
        #expect(error?.description.contains("timeout: SECONDS in ai.yaml") == true)
    }

    /// A message at the edge: an endpoint's message is cut, in bytes, where a character ends.
    @Test func anEndpointsLongMessageIsCutToItsBound() {
        let long = String(repeating: "é", count: 400)
        let cut = ModelClient.bounded(long)
        #expect(cut.utf8.count <= ModelClient.messageBytes && cut.hasSuffix("…") && cut.dropLast().allSatisfy { $0 == "é" })
        #expect(ModelClient.bounded("short") == "short")
    }

    @Test func garbageInTheStreamIsMalformed() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: {not json\n\n")
            connection.close()
        }
        defer { server.stop() }
        let error = await #expect(throws: ModelError.self) { try await Self.client(server).complete([ChatMessage(.user, "hi")]) }
        guard case .malformed? = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func anEndpointThatIsDownIsNamed() async throws {
        let closed = try ClosedPort()
        let client = ModelClient(settings: ModelSettings(baseURL: "http://127.0.0.1:\(closed.port)/v1", model: "m", keyVariable: nil),
                                 key: nil, limits: ModelClient.Limits(attempts: 2))
        let error = await #expect(throws: ModelError.self) { try await client.complete([ChatMessage(.user, "hi")]) }
        guard case .unreachable(let baseURL, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(baseURL == "http://127.0.0.1:\(closed.port)/v1")
    }
}
