import ArgumentParser
import CommandSupport
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif
import PlainText

/// `termcanvas serve …`, `termcanvas user …` and `termcanvas migrate …` run `termcanvas-bff`, the server's executable
/// beside this one, with the same arguments (its `--help` describes them).
///
/// The server's libraries (Hummingbird, SwiftNIO, swift-crypto) live in that binary only: in
/// this one they cost every dashboard start about 1.5 ms (type conformances for the Swift
/// runtime to scan, relocations for the loader) and 70 MB of binary.
enum ServerExecutable {
    /// Replaces this process with `termcanvas-bff ARGUMENTS`, so signals and the process id are
    /// the server's own. Returns only by throwing.
    static func exec(_ arguments: [String]) throws -> Never {
        let path = Paths.serverExecutable.path
        // Its usage lines and help then name the command typed, not the executable.
        setenv("TERMCANVAS_INVOKED_AS", "termcanvas", 1)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = SystemErrorWords.describe(errno)
        throw ValidationError("cannot run \(path): \(reason) (it is built and installed beside termcanvas)")
    }
}

/// A subcommand that `termcanvas-bff` runs: everything after its name, `--help` included
/// (hence no help names of its own), goes there unparsed.
protocol ServerSubcommand: ParsableCommand {
    var arguments: [String] { get }
}

extension ServerSubcommand {
    func run() throws {
        try ServerExecutable.exec([Self.configuration.commandName].compactMap { $0 } + arguments)
    }
}

struct ServeCommand: ServerSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the micro-app backend server (`termcanvas serve --help` lists its options).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

struct UserCommand: ServerSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and delete the users of the micro-app server (`termcanvas user --help`).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

struct MigrateCommand: ServerSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the micro-app server's database schema up to date (`termcanvas migrate --help`).",
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
