import BFF
import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import ServerAPI
import ServerHTTP
import Testing

/// Issue 52: a sign-in could not be seen or ended; a phished device code signed someone in as its
/// victim unseen. Each sign-in is a session the user lists and ends, its tokens refused once it
/// ends, and their dashboards hear of each new one.
@Suite("BFF sessions (/api/auth/sessions)")
struct SessionsTests {
    private static func logIn(_ client: some TestClientProtocol, _ name: String, machine: String? = nil) async throws -> String {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let machine { headers[HTTPField.Name(SessionInfo.clientHeader)!] = machine }
        let response = try await client.execute(uri: APIPath.authToken, method: .post, headers: headers,
                                                body: .init(data: try JSONEncoder().encode(TokenRequest(username: name, password: "pw-\(name)"))))
        try #require(response.status == .ok)
        return try response.decode(TokenResponse.self).token
    }

    @Test("each sign-in is a session listed with how, whence and which machine; the caller's is marked")
    func listed() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let laptop = try await Self.logIn(client, "ann", machine: "ann-laptop")
            let phone = try await Self.logIn(client, "ann", machine: String(repeating: "x", count: SessionInfo.clientBytes + 1))
            _ = try await Self.logIn(client, "bob")
            let sessions = try await client.send(.get, APIPath.authSessions, token: laptop).decode([SessionInfo].self)
            #expect(sessions.count == 2, "bob's are not ann's")
            #expect(sessions.allSatisfy { $0.method == "password" && $0.address == "127.0.0.1" })
            #expect(sessions.filter(\.current).map(\.client) == ["ann-laptop"])
            // A machine name longer than a machine name is not kept.
            #expect(sessions.first { !$0.current }?.client == nil)
            let seenFromPhone = try await client.send(.get, APIPath.authSessions, token: phone).decode([SessionInfo].self)
            #expect(seenFromPhone.first(where: \.current)?.id == sessions.first { !$0.current }?.id)
        }
    }

    /// The finding: nothing ended a sign-in. Ended, its token is refused at once here (and within a
    /// second on other instances: `deploy/test-two-instances`), and its stream ends.
    @Test("ending the others refuses their tokens at once and ends their live streams; ending one by id; another's id is 404")
    func ended() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let mine = try await Self.logIn(client, "ann")
            let stolen = try await Self.logIn(client, "ann")
            let other = try await Self.logIn(client, "ann")
            let bob = try await Self.logIn(client, "bob")
            for token in [mine, stolen, other] { #expect(try await client.send(.get, APIPath.todoItems, token: token).status == .ok) }
            let stream = try SSEReader(port: port, token: stolen)
            _ = try await stream.readHead()

            let ended = try await client.send(.delete, APIPath.authSessions, token: mine)
            #expect(try ended.decode(SessionsEnded.self).ended == 2)
            #expect(try await client.send(.get, APIPath.todoItems, token: stolen).status == .unauthorized)
            #expect(try await client.send(.get, APIPath.todoItems, token: other).status == .unauthorized)
            #expect(try await client.send(.get, APIPath.todoItems, token: mine).status == .ok)
            // Its stream ends at the next event or keep-alive: a todo of ann's is the next event.
            _ = try await client.send(.post, APIPath.todoItems, token: mine, json: NewTodo(title: "after"))
            #expect(try await stream.next(timeout: .seconds(5)) == nil)

            // Bob's session is not ann's to end; her own is, as a logout.
            let bobs = try await client.send(.get, APIPath.authSessions, token: bob).decode([SessionInfo].self)
            #expect(try await client.send(.delete, APIPath.authSession(try #require(bobs.first).id), token: mine).status == .notFound)
            #expect(try await client.send(.get, APIPath.todoItems, token: bob).status == .ok)
            let own = try await client.send(.get, APIPath.authSessions, token: mine).decode([SessionInfo].self)
            #expect(own.count == 1)
            #expect(try await client.send(.delete, APIPath.authSession(try #require(own.first).id), token: mine).status == .noContent)
            #expect(try await client.send(.get, APIPath.todoItems, token: mine).status == .unauthorized)
        }
    }

    @Test("a token without a session (made before sessions were), or of a session never started, is refused")
    func tokensWithoutALiveSession() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: BFFHarness.secret), digestAlgorithm: .sha256)
        var legacy = TokenClaims(userID: 1, name: "ann", session: "", expires: .init(value: Date() + 600))
        legacy.sid = nil
        let withoutSession = try await keys.sign(legacy)
        let madeUp = try await keys.sign(TokenClaims(userID: 1, name: "ann", session: "0123456789abcdef", expires: .init(value: Date() + 600)))
        try await harness.withServer { client in
            _ = try await Self.logIn(client, "ann")
            for token in [withoutSession, madeUp] {
                #expect(try await client.send(.get, APIPath.todoItems, token: token).status == .unauthorized)
            }
        }
    }

    /// What makes a phished sign-in visible: every dashboard of the user hears of it.
    @Test("a new sign-in reaches the user's live streams, with its address and machine; no one else's")
    func newSignInIsHeard() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let ann = try await Self.logIn(client, "ann")
            let bob = try await Self.logIn(client, "bob")
            let annStream = try SSEReader(port: port, token: ann)
            let bobStream = try SSEReader(port: port, token: bob)
            _ = try await annStream.readHead()
            _ = try await bobStream.readHead()
            _ = try await Self.logIn(client, "ann", machine: "somewhere")
            let heard = try #require(try await annStream.next())
            #expect(heard.name == EventName.authSessionStarted.rawValue)
            let session = try JSONDecoder().decode(SessionInfo.self, from: Data(heard.data.utf8))
            #expect(session.method == "password" && session.address == "127.0.0.1" && session.client == "somewhere")
            #expect(try await bobStream.nextIs(.todoItemCreated, after: {
                _ = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "barrier"))
            }))
        }
    }
}
