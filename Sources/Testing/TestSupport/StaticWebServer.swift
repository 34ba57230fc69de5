import Foundation

/// nginx serving a folder's files on a loopback port, as a calendar publisher's web server does:
/// with `ETag` and `Last-Modified`, answering 304 to a request that names them, `.ics` as
/// `text/calendar`. `/moved/NAME` redirects to `/NAME` and `/private/…` asks for a sign-in.
/// Each answer's status is logged to `statuses` (one per line), so a test sees a 304 happen.
/// `/elsewhere/…` redirects to a second port, another origin, which answers 404 and notes
/// whether each request came with credentials (`credentialsElsewhere`).
public final class StaticWebServer: Sendable {
    public let folder: URL
    public let port: Int
    public let otherPort: Int
    private let prefix: URL
    private let pid: pid_t

    /// Starts nginx on a free loopback port, serving `folder` (made here, empty).
    public init() async throws {
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        folder = prefix.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var started: (port: Int, otherPort: Int, pid: pid_t)?
        for _ in 0..<5 where started == nil {
            let (port, otherPort) = (LoopbackPort.random(), LoopbackPort.random())
            try Self.configuration(port: port, otherPort: otherPort, prefix: prefix)
                .write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let pid = try Command.start([Self.program, "-p", prefix.path + "/", "-c", "nginx.conf", "-g", "daemon off;"])
            do {
                try await Command.waitUntilAnswering("http://127.0.0.1:\(port)/nginx-ready", within: .seconds(5))
                started = (port, otherPort, pid)
            } catch {
                // nginx's fast shutdown: the master ends its workers too (SIGKILL would orphan them).
                kill(pid, SIGTERM)
                _ = await Command.waitForExit(pid)
            }
        }
        guard let started else { throw StaticWebServerError.didNotStart }
        (port, otherPort, pid) = started
    }

    deinit {
        kill(pid, SIGQUIT)
        try? FileManager.default.removeItem(at: prefix)
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Writes a file to serve, its modification time `age` seconds back (nginx's validators are
    /// the file's time and size: a test that rewrites a file at once moves the time itself).
    public func serve(_ text: String, as name: String, age: TimeInterval = 0) throws {
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: file.path)
    }

    /// The statuses answered so far, in order.
    public var statuses: [Int] {
        ((try? String(contentsOf: prefix.appendingPathComponent("statuses.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int($0) }
    }

    /// Of each request the other origin had: `yes` when it came with an `Authorization`.
    public var credentialsElsewhere: [String] {
        ((try? String(contentsOf: prefix.appendingPathComponent("elsewhere.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    private static var program: String {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx"
    }

    private static func configuration(port: Int, otherPort: Int, prefix: URL) -> String {
        // As root, nginx's workers would run as nobody, who cannot read a test's private folder.
        let user = geteuid() == 0 ? "user root root;" : ""
        let path = prefix.path
        return """
            \(user)
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log;
            events { worker_connections 64; }
            http {
                types { text/calendar ics; text/html html; }
                default_type application/octet-stream;
                log_format status '$status';
                map $http_authorization $credentials { "" no; default yes; }
                log_format credentials '$credentials';
                access_log \(path)/statuses.log status;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(path)/www;
                    location = /nginx-ready { access_log off; return 200; }
                    location /moved/ { rewrite ^/moved/(.*)$ /$1 permanent; }
                    location /private/ { return 401; }
                    location /elsewhere/ { return 307 http://127.0.0.1:\(otherPort)/; }
                }
                server {
                    listen 127.0.0.1:\(otherPort);
                    access_log \(path)/elsewhere.log credentials;
                    location / { return 404; }
                }
            }

            """
    }
}

public enum StaticWebServerError: Error, CustomStringConvertible {
    case didNotStart

    public var description: String { "nginx did not start (is it installed? scripts/install-deps installs it)" }
}
