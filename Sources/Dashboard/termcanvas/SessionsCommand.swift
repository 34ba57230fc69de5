import AppInstalls
import ArgumentParser
import CanvasUI
import CommandSupport
import HTTPClient
import PlainText
import ServerAPI

/// `termcanvas sessions`: the user's sign-ins on a server, seen and ended.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List your sessions on a server (each sign-in: how, from where, which machine, when), and end them.",
        discussion: """
            A session you do not know is a sign-in someone else made as you: end it (termcanvas sessions end ID), or end \
            every one but this (termcanvas sessions end --others), and change your password or tell your identity \
            provider's admin. Its tokens are refused at once, on every instance of the server.
            """,
        subcommands: [List.self, End.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your sessions, the one of this login marked.")

        @OptionGroup var server: ServerOption

        func run() async throws {
            let sessions: [SessionInfo]
            do {
                sessions = try await server.client().get(APIPath.authSessions)
            } catch let error as HTTPClientError {
                throw CommandError(explaining: error, doing: "list your sessions")
            }
            for line in SessionInfo.table(sessions) { print(TerminalText.safe(line)) }
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "end", abstract: "End a session by its ID, or with --others every one but this.")

        @Argument(help: ArgumentHelp("The session's ID, as termcanvas sessions lists it.", valueName: "ID")) var id: String?
        @Flag(help: "End every session but the one of this login.") var others = false
        @OptionGroup var server: ServerOption

        func validate() throws {
            guard (id != nil) != others else { throw ValidationError("name one session to end (its ID), or --others for every one but this") }
            if let id, id.isEmpty || id.utf8.count > 64 || !id.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "/") }) {
                throw ValidationError("'\(TerminalText.safe(id))' is not a session's ID: termcanvas sessions lists them")
            }
        }

        func run() async throws {
            let client = try await server.client()
            do {
                if let id {
                    try await client.delete(APIPath.authSession(id))
                    print(TerminalText.safe("Ended session \(id): its tokens are refused from now on."))
                } else {
                    let ended: SessionsEnded = try await client.send(.delete, APIPath.authSessions)
                    print("Ended \(ended.ended) other session\(ended.ended == 1 ? "" : "s"): their tokens are refused from now on.")
                }
            } catch .status(404, _, _) {
                throw CommandError(TerminalText.safe("you have no session \(id ?? ""): termcanvas sessions lists them"))
            } catch {
                throw CommandError(explaining: error, doing: "end \(id.map { "session \($0)" } ?? "your other sessions")")
            }
        }
    }
}
