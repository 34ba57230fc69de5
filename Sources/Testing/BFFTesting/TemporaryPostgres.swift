import TestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the tests' own: `initdb` into a new private directory, started with
/// `pg_ctl` listening on a unix socket in that directory only (no TCP port to collide with or to
/// expose), one superuser with trust authentication, stopped and removed by `stop()`.
///
/// The programs (`initdb`, `pg_ctl`, `psql`) are found on `PATH` or in Debian's
/// `/usr/lib/postgresql/VERSION/bin` (the newest).
/// PostgreSQL refuses to run as root, so as root (CI) the server runs as the `postgres` user that
/// Debian's package creates, through `runuser`.
package final class TemporaryPostgres: Sendable {
    /// The private directory holding the data, the log and the socket.
    package let directory: URL
    /// The superuser to connect as.
    package let user = "termcanvas"
    /// The socket file, for a client's `unixSocketPath`.
    package var socketPath: String { directory.appendingPathComponent(".s.PGSQL.\(Self.port)").path }

    private let runAs: [String]
    private static let port = 5432

    private init(directory: URL, runAs: [String]) {
        self.directory = directory
        self.runAs = runAs
    }

    /// Creates, starts and waits for a new server.
    package static func start() throws -> TemporaryPostgres {
        guard find("initdb") != nil, find("pg_ctl") != nil else { throw TemporaryPostgresError.notInstalled }
        // Short, for a unix socket's path has a limit of about a hundred bytes. As root, in the
        // postgres user's home, which it can reach (a /tmp of mode 0700 it could not).
        let account = geteuid() == 0 ? getpwnam("postgres") : nil
        if geteuid() == 0, account == nil { throw TemporaryPostgresError.noPostgresUser }
        let parent = account.map { String(cString: $0.pointee.pw_dir) } ?? "/tmp"
        let directory = URL(fileURLWithPath: "\(parent)/tc-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        var runAs: [String] = []
        if let account {
            guard chown(directory.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw TemporaryPostgresError.failed("chown \(directory.path)", String(cString: strerror(errno)))
            }
            runAs = ["runuser", "-u", "postgres", "--"]
        }
        let server = TemporaryPostgres(directory: directory, runAs: runAs)
        do {
            let data = directory.appendingPathComponent("data").path
            try server.run("initdb", ["-D", data, "-U", server.user, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
            // Durability is not what these tests are about; speed is worth having.
            try server.run("pg_ctl", ["-D", data, "-l", directory.appendingPathComponent("log").path, "-w", "-o",
                                      "-k \(directory.path) -c listen_addresses='' -p \(port) -c fsync=off -c max_connections=500",
                                      "start"])
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// Stops the server at once and removes its directory.
    package func stop() {
        let data = directory.appendingPathComponent("data")
        if FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
            try? run("pg_ctl", ["-D", data.path, "-m", "immediate", "-w", "stop"])
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one SQL statement as the superuser, connected to the `postgres` database.
    package func psql(_ statement: String) throws {
        try run("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-p", "\(Self.port)", "-U", user, "-d", "postgres",
                         "-c", statement])
    }

    /// Runs one of the server's programs, its output to a file, and waits with `waitpid`
    /// (Foundation's `Process` would wait, after `pg_ctl start`, for as long as the server runs).
    private func run(_ program: String, _ arguments: [String]) throws {
        guard let executable = Self.find(program) else { throw TemporaryPostgresError.notInstalled }
        let command = runAs + [executable.path] + arguments
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("tc-pg-\(UUID().uuidString.prefix(8)).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let result = try Command.runBlocking(["sh", "-c", #"exec "$@" > "$0" 2>&1"#, outputFile.path] + command, capturingOutput: false)
        guard result.status == 0 else {
            let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            throw TemporaryPostgresError.failed(command.joined(separator: " "), text)
        }
    }

    /// Where a program of PostgreSQL's is: on `PATH`, else in the newest of Debian's versions.
    private static func find(_ program: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let onPath = path.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            .map { URL(fileURLWithPath: "/usr/lib/postgresql/\($0)/bin") }
        return (onPath + debian).map { $0.appendingPathComponent(program) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

package enum TemporaryPostgresError: Error, CustomStringConvertible {
    case notInstalled
    case noPostgresUser
    case failed(String, String)

    package var description: String {
        switch self {
        case .notInstalled: "PostgreSQL's initdb, pg_ctl or psql was not found (apt-get install postgresql; scripts/install-deps does)"
        case .noPostgresUser: "running as root needs the postgres user to run PostgreSQL as (Debian's postgresql package makes it)"
        case .failed(let command, let output): "\(command) failed: \(output)"
        }
    }
}
