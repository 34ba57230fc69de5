import Foundation

/// A real CalDAV server for the sync's tests: Radicale, pinned in a virtual environment under
/// `.build/` made on first use (as the calendar oracle's), on a free loopback port, with its own
/// folder and users; and python `caldav`, the field's client library, as the other side's
/// calendar program (`Tests/BFFTests/Fixtures/caldav_peer.py`).
public final class Radicale: Sendable {
    public static let packages = ["radicale==3.9.0", "caldav==3.6.0"]

    public let port: Int
    private let folder: URL
    private let pid: pid_t
    private let python: String

    /// Starts Radicale with `users` (name and password each).
    public init(users: [(name: String, password: String)]) async throws {
        python = try await Self.made.value
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("radicale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try users.map { "\($0.name):\($0.password)" }.joined(separator: "\n")
            .write(to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        var started: (port: Int, pid: pid_t)?
        for _ in 0..<5 where started == nil {
            let port = LoopbackPort.random()
            let configuration = """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                type = htpasswd
                htpasswd_filename = \(folder.path)/users
                htpasswd_encryption = plain
                [storage]
                filesystem_folder = \(folder.path)/collections
                [logging]
                level = warning

                """
            try configuration.write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
            let pid = try Command.start([python, "-m", "radicale", "--config", folder.appendingPathComponent("config").path])
            do {
                try await Command.waitUntilAnswering("http://127.0.0.1:\(port)/.web/", within: .seconds(15))
                started = (port, pid)
            } catch {
                kill(pid, SIGKILL)
                _ = await Command.waitForExit(pid)
            }
        }
        guard let started else { throw RadicaleError(description: "Radicale did not start") }
        (port, pid) = started
    }

    deinit {
        kill(pid, SIGTERM)
        try? FileManager.default.removeItem(at: folder)
    }

    public var url: String { "http://127.0.0.1:\(port)/" }

    /// Runs the peer script: `command` with its arguments, as `user`; its output (JSON where it
    /// lists).
    @discardableResult
    public func peer(_ user: (name: String, password: String), _ arguments: String...) async throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/BFFTests/Fixtures/caldav_peer.py").path
        let run = try await Command.run([python, script, url, user.name, user.password] + arguments)
        guard run.status == 0 else { throw RadicaleError(description: "caldav_peer \(arguments.joined(separator: " ")) failed: \(run.output)") }
        return run.output
    }

    private static let made = Task<String, any Error> {
        try await PinnedPython.make("caldav-venv", packages: packages, check: "import radicale, caldav; print(radicale.VERSION, caldav.__version__)")
    }

    public struct RadicaleError: Error, CustomStringConvertible {
        public let description: String
    }
}
