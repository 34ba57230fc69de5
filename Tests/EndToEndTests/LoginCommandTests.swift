import CanvasCore
import TestSupport
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `termcanvas login URL --user NAME` and `termcanvas --bff URL` against a real team server.
struct LoginCommandTests {
    @Test func logInKeepTheTokenPrivateAndUseTheServer() async throws {
        // The shipped layout, with its chat pane: the dashboard shows it has reached the team server
        // by showing a message that only the team server has.
        let testHome = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        defer { testHome.remove() }
        let environment = testHome.environment
        let home = testHome.url.path
        let binary = Products.termcanvas.path
        #expect(try await Command.run([binary, "user", "add", "alice", "--data-dir", home + "/bff"], environment: environment,
                                input: "correct horse\n").status == 0)
        let port = LoopbackPort.random()
        let server = try Command.start([binary, "serve", "--port", "\(port)", "--data-dir", home + "/bff"], environment: environment)
        defer { kill(server, SIGKILL) }
        try await Command.waitUntilAnswering("http://127.0.0.1:\(port)/health", within: .seconds(20))
        let url = "http://127.0.0.1:\(port)"
        let credential = home + "/config/termcanvas/credentials/http_127.0.0.1_\(port).json"

        // Without a login, --bff says what to do, before the terminal changes mode.
        let notYet = try await Command.run([binary, "--bff", url], environment: environment)
        #expect(notYet.status != 0)
        #expect(notYet.output.contains("no token for \(url): run `termcanvas login \(url) --user NAME` first"), "\(notYet.output)")

        let wrong = try await Command.run([binary, "login", url, "--user", "alice"], environment: environment, input: "wrong\n")
        #expect(wrong.status != 0)
        // The server's own words, e.g. "wrong username or password".
        #expect(wrong.output.contains("\(url) refused the login: wrong username or password"), "\(wrong.output)")
        #expect(!FileManager.default.fileExists(atPath: credential))
        // Issue 40: a refusal or a server that is down is no usage mistake (exit 1, no usage line),
        // and is said in our words, not libcurl's.
        #expect(wrong.status == 1 && !wrong.output.contains("Usage:"), "\(wrong.output)")


        let login = try await Command.run([binary, "login", url + "/", "--user", "alice"], environment: environment, input: "correct horse\n")
        #expect(login.status == 0, "\(login.output)")
        let mode = try FileManager.default.attributesOfItem(atPath: credential)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: credential))) as? [String: String]
        #expect(stored?["server"] == url && stored?["user"] == "alice")
        let token = try #require(stored?["token"])
        let items = try await Command.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                                     url + "/api/todo/items"])
        #expect(items.output == "200")
        let posted = try await Command.run(["curl", "-sf", "-o", "/dev/null", "-X", "POST", url + "/api/chat/channels/general/messages",
                                            "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                                            "-d", #"{"text":"from team"}"#])
        #expect(posted.status == 0, "\(posted.output)")

        // With the token, the dashboard uses the team server and starts no local one: once it shows
        // what only the team server has, it has chosen its server (a local one would be started
        // before any data is asked for), and no local server runs or was prepared for.
        let session = try await TmuxSession([binary, "--bff", url, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                      environment: environment)
        try await session.waitFor("November 2026")
        try await session.waitFor("alice: from team")
        #expect(LocalServerProcess.pid(runtimeDirectory: environment["XDG_RUNTIME_DIR"]!) == nil)
        #expect(!FileManager.default.fileExists(atPath: environment["XDG_RUNTIME_DIR"]! + "/termcanvas/bff.lock"))

        let unreachable = try await Command.run([binary, "login", "http://127.0.0.1:1", "--user", "alice"], environment: environment,
                                          input: "x\n")
        #expect(unreachable.status == 1 && !unreachable.output.contains("Usage:"), "\(unreachable.output)")
        #expect(unreachable.output.contains("could not reach http://127.0.0.1:1 (unreachable: nothing answers at http://127.0.0.1:1); check the address"),
                "\(unreachable.output)")

        // Plain HTTP to another machine would send the password readable: refused before asking
        // for it, unless the user says --insecure (then it only fails to connect).
        let remote = try await Command.run([binary, "login", "http://team.invalid:7450", "--user", "alice"], environment: environment,
                                           input: "secret\n")
        #expect(remote.status != 0)
        #expect(remote.output.contains("is plain HTTP to another machine"), "\(remote.output)")
        #expect(!remote.output.contains("Password"))
        let allowed = try await Command.run([binary, "login", "http://team.invalid:7450", "--user", "alice", "--insecure"],
                                            environment: environment, input: "secret\n")
        #expect(allowed.output.contains("could not reach http://team.invalid:7450 (unreachable: the host name of http://team.invalid:7450 is not known)"),
                "\(allowed.output)")
    }
}

/// What a server says reaches the terminal only as visible placeholders.
struct LoginHostileServerTests {
    /// A title change (OSC 0 … BEL) and a clear-screen, as JSON escapes.
    static let hostile = #"\u001b]0;owned\u0007\u001b[2Jbad"#

    @Test(
        "a hostile server's error text reaches stderr without ESC or BEL, as placeholders",
        arguments: [401, 403]
    )
    func hostileErrorText(status: Int) async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let server = try OneAnswerServer(status: status, body: #"{"error":"\#(Self.hostile)"}"#)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let login = try await Command.run([Products.termcanvas.path, "login", url, "--user", "alice"], environment: environment,
                                          input: "pw\n")
        #expect(login.status != 0)
        #expect(server.answered == 1)
        let bytes = Array(login.output.utf8)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(login.output.debugDescription)")
        #expect(login.output.contains("␛]0;owned␇␛[2Jbad"), "\(login.output.debugDescription)")
    }
}

/// A loopback HTTP server that gives every request the same answer and closes the connection
/// (the end-to-end tests run the real binary, so they have no `RawServer`).
final class OneAnswerServer: Sendable {
    let port: Int
    private let listener: Int32
    private let count = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    /// Requests answered so far.
    var answered: Int { count.load(ordering: .acquiring) }

    init(status: Int, body: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ready else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let response = "HTTP/1.1 \(status) Nope\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .relaxed) {
                let connection = accept(fd, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                // Counted before the answer goes out, so a client that has it sees the count.
                if Self.readRequest(connection) {
                    count.add(1, ordering: .releasing)
                    Self.write(response, to: connection)
                }
                close(connection)
            }
        }
    }

    /// Reads the request's head and `Content-Length` body; false when the client went first.
    private static func readRequest(_ connection: Int32) -> Bool {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if data.count - end.upperBound >= length { return true }
            }
            let read = recv(connection, &buffer, buffer.count, 0)
            if read <= 0 { return false }
            data += buffer[..<read]
        }
    }

    private static func write(_ response: String, to connection: Int32) {
        var bytes = Array(response.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
