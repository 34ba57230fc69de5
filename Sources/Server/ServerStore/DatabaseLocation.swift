import Foundation

/// Where the server keeps its data: one SQLite file (the embedded default, one server process), or
/// a PostgreSQL database that any number of instances share.
///
/// Written as a URL: `sqlite:PATH`, or `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` with
/// libpq's `sslmode` (`disable`, `prefer`, `require`, `verify-ca`, `verify-full`) and `sslrootcert`,
/// and `host=/DIR` for a unix socket in that directory. Its `description` never shows the password.
package enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(URL)
    case postgres(PostgresLocation)

    /// Reads a database URL; `password` is used when the URL carries none (`PGPASSWORD`, a file).
    package init(url text: String, password: String? = nil) throws(DatabaseLocationError) {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count)).replacingOccurrences(of: "//", with: "", options: .anchored)
            guard !path.isEmpty else { throw .invalid(text: text, reason: "sqlite: needs a file path, as in sqlite:/var/lib/termcanvas/bff.sqlite") }
            self = .sqlite(URL(fileURLWithPath: path))
            return
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw .invalid(text: Self.redacted(text), reason: "expected sqlite:PATH or postgres://USER@HOST:PORT/DATABASE")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .invalid(text: Self.redacted(text), reason: "unknown scheme '\(scheme)'; use sqlite: or postgres://")
        }
        self = .postgres(try PostgresLocation(components, password: password))
    }

    package var description: String {
        switch self {
        case .sqlite(let url): "sqlite:\(url.path)"
        case .postgres(let location): location.description
        }
    }

    /// The URL with any password replaced by `***`, for error messages.
    static func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: #"(://[^:/@]*):[^@]*@"#, with: "$1:***@", options: .regularExpression)
    }
}

/// A PostgreSQL database and how to reach it.
package struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    package enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file (`DIR/.s.PGSQL.PORT`), as libpq finds it from `host=/DIR`.
        case unixSocket(path: String)
    }

    /// libpq's `sslmode`, as postgres-nio can honour it.
    package enum TLSMode: String, Sendable, Equatable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var endpoint: Endpoint
    package var user: String
    package var password: String?
    package var database: String
    package var tls: TLSMode
    /// CA certificates (PEM) that `verify-ca` and `verify-full` trust instead of the system's.
    package var rootCertificate: String?

    package init(endpoint: Endpoint, user: String, password: String? = nil, database: String, tls: TLSMode = .prefer,
                rootCertificate: String? = nil) {
        self.endpoint = endpoint
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
        self.rootCertificate = rootCertificate
    }

    init(_ components: URLComponents, password fallback: String?) throws(DatabaseLocationError) {
        let shown = DatabaseLocation.redacted(components.string ?? "")
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        if let unknown = query.keys.first(where: { !["sslmode", "sslrootcert", "host"].contains($0) }) {
            throw .invalid(text: shown, reason: "unknown parameter '\(unknown)' (known: sslmode, sslrootcert, host)")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .invalid(text: shown, reason: "port must be 1 to 65535") }
        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            endpoint = .unixSocket(path: "\(socketDirectory)/.s.PGSQL.\(port)")
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw .invalid(text: shown, reason: "no host (postgres://USER@HOST:PORT/DATABASE, or ?host=/SOCKET/DIR)")
            }
            endpoint = .tcp(host: host, port: port)
        }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw .invalid(text: shown, reason: "no user (postgres://USER@HOST/DATABASE)")
        }
        self.user = user
        password = components.password?.removingPercentEncoding ?? fallback
        database = String(components.path.dropFirst()).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw .invalid(text: shown, reason: "no database name (postgres://USER@HOST/DATABASE)")
        }
        let mode = query["sslmode"] ?? TLSMode.prefer.rawValue
        guard let tls = TLSMode(rawValue: mode) else {
            throw .invalid(text: shown, reason: "sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.tls = tls
        rootCertificate = query["sslrootcert"]
    }

    package var description: String {
        let place = switch endpoint {
        case .tcp(let host, let port): "\(host):\(port)"
        case .unixSocket(let path): "(socket \(path))"
        }
        return "postgres://\(user)@\(place)/\(database)"
    }
}

package enum DatabaseLocationError: Error, Equatable, CustomStringConvertible {
    case invalid(text: String, reason: String)

    package var description: String {
        switch self {
        case .invalid(let text, let reason): "database URL \(text): \(reason)"
        }
    }
}
