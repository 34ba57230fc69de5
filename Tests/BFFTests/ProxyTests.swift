@testable import BFF
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerProxy
import Synchronization
import Testing
import TestSupport

/// The proxy of remote apps' entries against entries that misbehave, each a real server on
/// loopback: one that hangs, one that trickles its answer, one whose stream never starts, one that
/// floods its stream; and a well-behaved one with many panes open at once.
@Suite(.serialized)
struct ProxyTests {
    enum Behaviour: Sendable {
        case answers, hangs, trickles, neverStreams, floods, refusesMessages
        /// Its streams send one keep-alive, then nothing.
        case fallsSilent
    }

    /// How long an entry hangs or keeps a stream open: past the proxy's timeouts, short enough
    /// for the entry's shutdown, which waits for them, to be quick.
    static let lifetime = Duration.seconds(5)

    /// An entry behaving as told; every session's stream stays open for `lifetime`.
    static func entry(_ behaviour: Behaviour, ended: (@Sendable (String) -> Void)? = nil) -> some ApplicationProtocol {
        let router = Router()
        let opened = Atomic<Int>(0)
        router.post("sessions") { _, _ in
            switch behaviour {
            case .hangs:
                try await Task.sleep(for: lifetime)
            case .trickles:
                return Response(status: .created, headers: [.location: "/sessions/s1", .contentType: "application/json"],
                                body: ResponseBody { writer in
                                    for _ in 0..<10 {
                                        try await writer.write(ByteBuffer(string: " "))
                                        try await Task.sleep(for: .milliseconds(500))
                                    }
                                    try await writer.finish(nil)
                                })
            default:
                break
            }
            let number = opened.add(1, ordering: .relaxed).newValue
            return Response(status: .created, headers: [.location: "/sessions/s\(number)", .contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: TestEntry.answer)))
        }
        router.get("sessions/{session}/events") { _, _ in
            if behaviour == .neverStreams { try await Task.sleep(for: lifetime) }
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                let view = #"{"jsonrpc":"2.0","method":"view","params":{"revision":1,"root":{"type":"text","text":"\#(String(repeating: "x", count: 16_000))"}}}"#
                let deadline = ContinuousClock.now + lifetime
                while ContinuousClock.now < deadline {
                    if behaviour == .floods {
                        try await writer.write(ByteBuffer(string: "data: \(view)\n\n"))
                    } else if behaviour == .fallsSilent {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        try await Task.sleep(until: deadline)
                    } else {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        try await Task.sleep(for: .milliseconds(500))
                    }
                }
                try await writer.finish(nil)
            })
        }
        router.post("sessions/{session}/messages") { _, _ in
            guard behaviour == .refusesMessages else { return Response(status: .accepted) }
            return Response(status: .unprocessableContent, body: .init(byteBuffer: ByteBuffer(string: "no such key\u{1B}[2J")))
        }
        router.delete("sessions/{session}") { _, context in
            ended?(context.parameters.get("session") ?? "")
            return Response(status: .noContent)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// `body` with a server whose registry has `deploys` at an entry behaving as told, granted to alice.
    static func withProxy(_ behaviour: Behaviour, ended: (@Sendable (String) -> Void)? = nil, limits: ServerLimits? = nil,
                          _ body: @Sendable (_ client: any TestClientProtocol, _ token: String) async throws -> Void) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        var configured = harness.configuration(secret: BFFHarness.secret)
        if let limits { configured.limits = limits }
        let configuration = configured
        try await entry(behaviour, ended: ended).test(.live) { entry in
            let url = URL(string: "http://127.0.0.1:\(try #require(entry.port))/")!
            let manifest = RegistryManifest(id: "deploys", name: "Deploys", version: "1.0.0")
            try await harness.withStore { store in
                let alice = try await store.addUser(name: "alice", password: "pw-alice", isAdmin: true)
                _ = try await store.publish(manifest, version: SemanticVersion("1.0.0")!, entry: url, by: alice, rotateSecrets: false, makeSecret: { "s-\(UUID())" })
                #expect(try await store.grant("deploys", to: alice.id))
            }
            try await harness.withServer(configuration: configuration) { client in
                try await body(client, try await client.token(for: "alice"))
            }
        }
    }

    static func open(_ client: any TestClientProtocol, _ token: String) async throws -> TestResponse {
        try await client.send(.post, APIPath.appSessions("deploys"), token: token,
                              rawBody: #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
    }

    /// The call timeout (3 s) and room for a loaded machine (CI's two shared cores once took
    /// 4.2 s). The 504 is what shows the cut-off: left alone, each entry answers after `lifetime`
    /// (the stream starts then too); the bound only says the call waited not much past the timeout.
    static let cutOffBound = Duration.seconds(8)

    @Test func aHungEntryIsCutOffWithinTheCallTimeout() async throws {
        try await Self.withProxy(.hangs) { client, token in
            let started = ContinuousClock.now
            let response = try await Self.open(client, token)
            #expect(response.status == .gatewayTimeout)
            #expect(String(buffer: response.body).contains("the app's entry is too slow"))
            #expect(ContinuousClock.now - started < Self.cutOffBound)
        }
    }

    @Test func anEntryThatTricklesItsAnswerIsCutOffToo() async throws {
        try await Self.withProxy(.trickles) { client, token in
            let started = ContinuousClock.now
            let response = try await Self.open(client, token)
            #expect(response.status == .gatewayTimeout)
            #expect(ContinuousClock.now - started < Self.cutOffBound)
        }
    }

    /// The app's own refusal (a 4xx) is its answer, not the server's failure; a message past the
    /// protocol's line limit is 413 naming it, before the entry is asked.
    @Test func anAppsRefusalPassesThroughAndTheLimitIsNamed() async throws {
        try await Self.withProxy(.refusesMessages) { client, token in
            let session = try await Self.open(client, token).decode(RemoteSession.self).session
            let refused = try await client.send(.post, APIPath.appSessionMessages("deploys", session), token: token, rawBody: #"{"jsonrpc":"2.0","method":"key","params":{"key":"x"}}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.apiError?.error == "the app answered 422: no such key[2J", "control characters are dropped")
            let huge = #"{"jsonrpc":"2.0","method":"key","params":{"key":""# + String(repeating: "x", count: 256 * 1024) + #""}}"#
            let tooLarge = try await client.send(.post, APIPath.appSessionMessages("deploys", session), token: token, rawBody: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.apiError?.error == "a message to a remote app is at most 256 KiB")
        }
    }

    @Test func aStreamThatNeverStartsIsCutOff() async throws {
        try await Self.withProxy(.neverStreams) { client, token in
            let session = try await Self.open(client, token).decode(RemoteSession.self).session
            let started = ContinuousClock.now
            let stream = try await client.send(.get, APIPath.appSessionEvents("deploys", session), token: token, data: nil)
            #expect(stream.status == .gatewayTimeout)
            #expect(ContinuousClock.now - started < Self.cutOffBound)
        }
    }

    @Test func anIdleStreamPassesTheEntrysKeepAlivesOn() async throws {
        try await Self.withProxy(.answers) { client, token in
            let session = try await Self.open(client, token).decode(RemoteSession.self).session
            let reader = try SSEReader(port: try #require(client.port), token: token, path: APIPath.appSessionEvents("deploys", session))
            _ = try await reader.readHead()
            // The entry sends a comment every 500 ms and no event.
            #expect(try await reader.staysQuiet(for: .milliseconds(1500)))
            #expect(reader.receivedText.contains(": keep-alive\n\n"), "\(reader.receivedText)")
        }
    }

    @Test func aSecondStreamOfOneSessionIsRefused() async throws {
        try await Self.withProxy(.answers) { client, token in
            let session = try await Self.open(client, token).decode(RemoteSession.self).session
            let reader = try SSEReader(port: try #require(client.port), token: token, path: APIPath.appSessionEvents("deploys", session))
            _ = try await reader.readHead()
            // The stream claims the session as its body starts, just after the head (a second
            // request racing it past the head gets a stream that ends at once): once the entry's
            // first keep-alive came through, the claim is made.
            #expect(try await reader.receives(": keep-alive"))
            let second = try await client.send(.get, APIPath.appSessionEvents("deploys", session), token: token, data: nil)
            #expect(second.status == .conflict)
            withExtendedLifetime(reader) {}
        }
    }

    @Test func aStreamWhoseClientLeftEndsAtOnceAndFreesItsSession() async throws {
        try await Self.withProxy(.fallsSilent) { client, token in
            let session = try await Self.open(client, token).decode(RemoteSession.self).session
            var reader: SSEReader? = try SSEReader(port: try #require(client.port), token: token,
                                                   path: APIPath.appSessionEvents("deploys", session))
            _ = try await reader?.readHead()
            #expect(try await reader?.receives(": keep-alive") == true)
            reader = nil  // the client closes its connection
            // The entry sends nothing more, so no write can find the client gone: only its
            // closed connection ends the stream, and the session with it.
            try await eventually("the session ended with its stream", within: .seconds(2)) {
                try await client.send(.post, APIPath.appSessionMessages("deploys", session), token: token,
                                      rawBody: #"{"jsonrpc":"2.0","method":"key","params":{"key":"c"}}"#).status == .notFound
            }
        }
    }

    @Test func theFramerReportsCommentsAndNumbersNothingOfTheirs() {
        var framer = EntryEventFramer()
        let items = framer.feed(Array(": ping\n\ndata: {\"a\":1}\n\n:x\r\n".utf8))
        #expect(items == [.comment, .data(#"{"a":1}"#), .comment])
    }

    @Test func aFloodedStreamIsPaced() async throws {
        try await Self.withProxy(.floods) { client, token in
            let session = try await Self.open(client, token).decode(RemoteSession.self).session
            let reader = try SSEReader(port: try #require(client.port), token: token, path: APIPath.appSessionEvents("deploys", session))
            _ = try await reader.readHead()
            let window = Duration.seconds(2)
            let end = ContinuousClock.now + window
            var bytes = 0
            while ContinuousClock.now < end, let event = try await reader.next() { bytes += event.data.utf8.count }
            // At most the burst and two seconds' pace (and the event in flight); well more than nothing.
            let bound = Int(AppProxyController.streamBurst + 2 * AppProxyController.streamBytesPerSecond) + 64 * 1024
            #expect(bytes <= bound, "\(bytes) bytes in \(window)")
            #expect(bytes >= 512 * 1024, "\(bytes) bytes in \(window)")
        }
    }

    @Test func manyPanesOfOneEntryAllAnswer() async throws {
        try await Self.withProxy(.answers) { client, token in
            var readers: [SSEReader] = []
            var sessions: [String] = []
            for _ in 0..<12 {
                let session = try await Self.open(client, token).decode(RemoteSession.self).session
                let reader = try SSEReader(port: try #require(client.port), token: token, path: APIPath.appSessionEvents("deploys", session))
                _ = try await reader.readHead()
                readers.append(reader)
                sessions.append(session)
            }
            // Twelve streams hold twelve connections to the entry; the messages still get through.
            for session in sessions {
                let started = ContinuousClock.now
                let sent = try await client.send(.post, APIPath.appSessionMessages("deploys", session), token: token,
                                                 rawBody: #"{"jsonrpc":"2.0","method":"key","params":{"key":"c"}}"#)
                #expect(sent.status == .noContent)
                #expect(ContinuousClock.now - started < .seconds(1))
            }
            withExtendedLifetime(readers) {}
        }
    }
}

/// The per-user and total bounds of proxied sessions, and the expiry of sessions never streamed.
struct RemoteSessionsTests {
    @Test func aSessionNeverStreamedIsEndedAtItsEntry() async throws {
        let ended = Mutex<[String]>([])
        try await ProxyTests.withProxy(.answers, ended: { session in ended.withLock { $0.append(session) } },
                                 limits: ServerLimits(unstreamedSessionLifetime: .milliseconds(300))) { client, token in
            #expect(try await ProxyTests.open(client, token).status == .created)
            try await Task.sleep(for: .milliseconds(400))
            // The next session's reservation finds the first expired and ends it at the entry.
            #expect(try await ProxyTests.open(client, token).status == .created)
            try await eventually("the expired session ended at its entry") { !ended.withLock { $0.isEmpty } }
            #expect(ended.withLock { $0 } == ["s1"])
        }
    }

    @Test func aSessionNeverStreamedExpiresAndOneStreamingStays() {
        let sessions = RemoteSessions(perUser: 2, total: 10, unstreamedLifetime: .seconds(30))
        let start = ContinuousClock.now
        for session in ["1", "2"] {
            #expect(sessions.reserve(for: 1, now: start).reserved)
            sessions.add(.init(app: "a", session: session), owner: 1, now: start)
        }
        #expect(sessions.streaming(.init(app: "a", session: "2")))
        #expect(!sessions.streaming(.init(app: "a", session: "2")), "one stream per session")
        #expect(!sessions.streaming(.init(app: "a", session: "3")), "no stream for a session not opened")
        #expect(!sessions.reserve(for: 1, now: start + .seconds(29)).reserved)
        #expect(sessions.reserve(for: 2, now: start + .seconds(29)).reserved)
        let later = sessions.reserve(for: 1, now: start + .seconds(30))
        #expect(later.reserved && later.expired == [.init(key: .init(app: "a", session: "1"), owner: 1)], "ended at its entry by the caller")
        #expect(sessions.owner(of: .init(app: "a", session: "1")) == nil)
        #expect(sessions.owner(of: .init(app: "a", session: "2")) == 1)
    }

    @Test func theTotalBoundsEveryone() {
        let sessions = RemoteSessions(perUser: 5, total: 3)
        for index in 0..<3 {
            #expect(sessions.reserve(for: Int64(index)).reserved)
            sessions.add(.init(app: "a", session: "\(index)"), owner: Int64(index))
        }
        #expect(!sessions.reserve(for: 9).reserved)
        sessions.remove(.init(app: "a", session: "0"))
        #expect(sessions.reserve(for: 9).reserved)
    }

    /// Places are taken before the entry is asked, so opens at once cannot all pass the check.
    @Test func reservationsCountAtOnce() {
        let sessions = RemoteSessions(perUser: 2, total: 10)
        #expect(sessions.reserve(for: 1).reserved && sessions.reserve(for: 1).reserved)
        #expect(!sessions.reserve(for: 1).reserved, "two opens under way fill the user's two places")
        sessions.release(for: 1)
        #expect(sessions.reserve(for: 1).reserved, "a failed open gives its place back")
    }
}

/// What the server signs for an entry (docs/microapp-protocol.md, "Who calls").
struct EntryIdentityTests {
    @Test func theSignatureCoversTheBody() throws {
        let now = Date(timeIntervalSince1970: 1_795_426_200)
        func signature(_ body: String) throws -> String {
            let headers = EntryIdentity.headers(user: "ann", app: "deploys", method: "POST", path: "/sessions/4f2a/messages",
                                                body: Array(body.utf8), secret: "s3cret", now: now)
            return try #require(headers.first { $0.0 == "X-TermCanvas-Signature" }?.1)
        }
        let digest = SHA256.hash(data: Data(#"{"method":"key"}"#.utf8)).map { String(format: "%02x", $0) }.joined()
        let message = "1795426200.ann.POST /sessions/4f2a/messages.\(digest)"
        let expected = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data("s3cret".utf8)))
        #expect(try signature(#"{"method":"key"}"#) == "sha256=" + expected.map { String(format: "%02x", $0) }.joined())
        #expect(try signature(#"{"method":"key"}"#) != signature(#"{"method":"exit"}"#))
    }
}
