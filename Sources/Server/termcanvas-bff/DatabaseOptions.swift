import ArgumentParser
import BFF
import CommandSupport
import Foundation
import ServerStore

/// Where the server's data is: the options `serve`, `migrate` and `user` share.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The database: sqlite:PATH, or postgres://USER@HOST:PORT/DB (?sslmode=…; ?host=/DIR for a unix socket). "
            + "Default: $TERMCANVAS_DATABASE_URL, else bff.sqlite in --data-dir.",
        valueName: "URL"))
    var database: String?
    @Option(help: ArgumentHelp("A file holding the PostgreSQL password, when the URL has none (else $PGPASSWORD).",
                               valueName: "FILE"))
    var databasePasswordFile: String?
    @Option(help: ArgumentHelp("Where the server keeps its SQLite database and signing secret.", valueName: "DIR"))
    var dataDir: String?

    /// The data directory: `--data-dir`, else the user's.
    func dataDirectory(_ environment: [String: String]) -> URL {
        dataDir.map { URL(fileURLWithPath: $0) } ?? Paths(environment: environment).bffDirectory
    }

    /// The database these options name; nil for the SQLite file in the data directory.
    func location(_ environment: [String: String]) throws -> DatabaseLocation? {
        guard let text = database ?? environment["TERMCANVAS_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        var password = environment["PGPASSWORD"]
        if let file = databasePasswordFile {
            do {
                password = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw ValidationError("cannot read --database-password-file \(file): \(error.localizedDescription)")
            }
        }
        do {
            return try DatabaseLocation(url: text, password: password)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The database, the default filled in.
    func resolvedLocation(_ environment: [String: String]) throws -> DatabaseLocation {
        try location(environment) ?? .sqlite(BFFConfiguration(dataDirectory: dataDirectory(environment)).databaseURL)
    }
}
