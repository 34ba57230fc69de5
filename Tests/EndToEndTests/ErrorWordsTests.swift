import Foundation
import TestSupport
import Testing

/// Issue 40: every error a user meets says what happened and what to do in our words — never
/// the system's error text, never a usage line after a failure that was no usage mistake — and
/// the exit status tells a script which (64 usage, 1 failure).
struct ErrorWordsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let input: String?
        let status: Int32
        let says: String
        /// A server this user logged in to before (a token kept for it), though it is down now.
        var loggedInTo: String?
        var testDescription: String { "termcanvas " + arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["--layout", "nosuch.yaml"], input: nil, status: 1, says: "nosuch.yaml: no such file; check the path"),
        Case(arguments: ["--layout", "HOME"], input: nil, status: 1, says: "is a folder, not a file"),
        Case(arguments: ["--layout", "nosuch"], input: nil, status: 1,
             says: "no layout named 'nosuch'; there are: default, monitor, planner, workbench (`termcanvas layout list` says more)"),
        Case(arguments: ["layout", "import", "nosuch.yaml"], input: nil, status: 1, says: "nosuch.yaml: no such file; check the path"),
        // A name is the user's, but may come from elsewhere (a download, a package): shown, never obeyed.
        Case(arguments: ["--layout", "HOME/\u{1B}]0;pwned\u{07}.yaml"], input: nil, status: 1, says: "/␛]0;pwned␇.yaml: no such file; check the path"),
        Case(arguments: ["apps", "try", "HOME/\u{1B}[2J"], input: nil, status: 1, says: "/␛[2J: has no app.yaml: give the folder of a micro-app"),
        Case(arguments: ["layuot", "list"], input: nil, status: 64, says: "did you mean 'termcanvas layout'?"),
        Case(arguments: ["layout", "lsit"], input: nil, status: 64, says: "did you mean 'termcanvas layout list'?"),
        Case(arguments: ["login", "http://127.0.0.1:1", "--user", "ann"], input: "correct horse\n", status: 1,
             says: "could not reach http://127.0.0.1:1 (unreachable: nothing answers at http://127.0.0.1:1); check the address"),
        Case(arguments: ["layout", "move", "default", "--to", "server"], input: nil, status: 64,
             says: "--to server needs the server: termcanvas layout move default --to server --bff URL (after `termcanvas login URL`)"),
        Case(arguments: ["layout", "share", "default", "bob", "--bff", "http://127.0.0.1:1"], input: nil, status: 1,
             says: "could not share default with bob: ", loggedInTo: "http://127.0.0.1:1"),
        Case(arguments: ["layout", "members", "default", "--bff", "http://127.0.0.1:1"], input: nil, status: 1,
             says: "could not list who shares default: ", loggedInTo: "http://127.0.0.1:1"),
        Case(arguments: ["layout", "show", "nosuch"], input: nil, status: 1,
             says: "no layout named 'nosuch'; there are: default, monitor, planner, workbench"),
        Case(arguments: ["layout", "delete", "nosuch"], input: nil, status: 1, says: "no layout named 'nosuch'"),
        Case(arguments: ["layout", "export", "nosuch"], input: nil, status: 1, says: "no layout named 'nosuch'"),
        Case(arguments: ["layout", "history", "nosuch"], input: nil, status: 1, says: "no layout named 'nosuch'"),
        Case(arguments: ["render", "--layout", "nosuch"], input: nil, status: 1, says: "no layout named 'nosuch'"),
        Case(arguments: ["apps", "remove", "nosuch"], input: nil, status: 1, says: "no micro-app 'nosuch' is installed (installed: "),
        Case(arguments: ["apps", "grant", "nosuch"], input: nil, status: 1, says: "no micro-app 'nosuch' is installed (installed: "),
        Case(arguments: ["apps", "log", "nosuch"], input: nil, status: 1, says: "no micro-app 'nosuch' is installed (installed: "),
        Case(arguments: ["apps", "add", "HOME"], input: nil, status: 1, says: "has no app.yaml"),
        Case(arguments: ["apps", "publish", "HOME", "--bff", "http://127.0.0.1:1"], input: nil, status: 1, says: "app.yaml: no such file; check the path"),
        Case(arguments: ["audit", "--bff", "http://127.0.0.1:1"], input: nil, status: 1,
             says: "no token for http://127.0.0.1:1: run `termcanvas login http://127.0.0.1:1 --user NAME` first"),
        Case(arguments: ["serve", "--port", "99999"], input: nil, status: 64, says: "--port must be 0 to 65535, got 99999"),
        Case(arguments: ["apps", "try", "HOME"], input: nil, status: 1, says: "has no app.yaml: give the folder of a micro-app"),
        Case(arguments: ["apps", "try", "HOME", "--size", "0x3"], input: nil, status: 64, says: "--size 0x3 is not WIDTHxHEIGHT"),
        Case(arguments: ["apps", "try", "HOME", "--key", "nosuch"], input: nil, status: 64, says: "--key nosuch: no key has that name"),
        Case(arguments: ["user", "add", "ann", "--data-dir", "HOME/bff"], input: "short\n", status: 1,
             says: "a password must be at least 8 characters; nothing was changed"),
    ]

    /// Words only the system or a library would print.
    static let rawText = ["NSCocoaErrorDomain", "Error Domain=", "Code=", "errno", "Couldn't", "Failed to connect", "(null)",
                          "No such file or directory", "Permission denied", "Connection refused"]

    @Test(arguments: cases)
    func saysWhatHappenedInOurWords(_ example: Case) async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let root = home.environment["HOME"]!
        let arguments = example.arguments.map { $0.replacingOccurrences(of: "HOME", with: root) }
        if let server = example.loggedInTo {
            let folder = URL(fileURLWithPath: home.environment["XDG_CONFIG_HOME"]! + "/termcanvas/credentials")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let file = folder.appendingPathComponent(String(server.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
                .replacingOccurrences(of: "___", with: "_") + ".json")
            try Data(#"{"server":"\#(server)","user":"ann","token":"t0ken"}"#.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
        let result = try await Command.run([Products.termcanvas.path] + arguments, environment: home.environment, input: example.input)
        #expect(result.status == example.status, "\(result.output)")
        #expect(result.output.contains(example.says), "\(result.output)")
        #expect(!Self.rawText.contains { result.output.contains($0) }, "\(result.output)")
        #expect(!result.output.contains("\u{1B}") && !result.output.contains("\u{07}"), "\(result.output)")
        if example.status != 64 { #expect(!result.output.contains("Usage:"), "\(result.output)") }
    }

    /// A path through a folder closed to the user says so, not that nothing is there. As root,
    /// who may open any folder, the command runs without capabilities (setpriv), so the kernel
    /// checks modes as for anyone else.
    @Test(arguments: [(["apps", "try", "CLOSED/app"], "CLOSED/app: you may not reach it: a folder on its path is closed to you; check their modes (ls -ld)"),
                      (["apps", "add", "CLOSED/app"], "CLOSED/app: you may not reach it: a folder on its path is closed to you"),
                      (["--layout", "CLOSED/mine.yaml"], "CLOSED/mine.yaml: you may not reach it: a folder on its path is closed to you")])
    func aClosedFolderOnThePathIsNamed(_ example: ([String], String)) async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let closed = home.url.appendingPathComponent("closed")
        try FileManager.default.createDirectory(at: closed.appendingPathComponent("app"), withIntermediateDirectories: true)
        try Data("id: x\n".utf8).write(to: closed.appendingPathComponent("app/app.yaml"))
        try Data("name: mine\n".utf8).write(to: closed.appendingPathComponent("mine.yaml"))
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: closed.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: closed.path) }
        let command = [Products.termcanvas.path] + example.0.map { $0.replacingOccurrences(of: "CLOSED", with: closed.path) }
        let result = try await Command.run((getuid() == 0 ? ["setpriv", "--inh-caps=-all", "--bounding-set=-all"] : []) + command,
                                           environment: home.environment)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains(example.1.replacingOccurrences(of: "CLOSED", with: closed.path)), "\(result.output)")
    }
}
