import AppInstalls
import ArgumentParser
import CanvasCore
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import LayoutStore
import ServerAPI
import ServerSync

/// Layouts on a server: moved there to be shared, shared with other users as editors or viewers,
/// moved back. Each takes `--bff URL` (after `termcanvas login`); without it, this user's local
/// server.
extension LayoutCommand {
    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a layout to the server, where it can be shared, or back to this machine.",
            discussion: """
                --to server stores the saved (or preset) layout NAME on the server as a canvas of yours and \
                deletes the copy on this machine; --to local brings your canvas NAME back, which deletes it \
                on the server for everyone it was shared with.
                """)

        @Argument(help: "The layout's name.") var name: String
        @Option(help: "Where it goes: server or local.") var to: Place
        @OptionGroup var server: ServerOption

        enum Place: String, ExpressibleByArgument, CaseIterable { case server, local }

        /// A layout moves to a team's server, never to this user's local one, where it would be
        /// shared with no one and found by nothing but `layout list`.
        func validate() throws {
            guard to == .server, server.bff == nil else { return }
            let servers = Paths(environment: ProcessInfo.processInfo.environment).credentials.servers()
            let example = servers.count == 1 ? servers[0] : "URL"
            throw ValidationError(TerminalText.safe(
                "--to server needs the server: termcanvas layout move \(name) --to server --bff \(example)"
                + (servers.isEmpty ? " (after `termcanvas login URL`)" : servers.count > 1 ? " (you are logged in to \(servers.joined(separator: ", ")))" : "")))
        }

        func run() async throws {
            let library = try LayoutCommand.library()
            switch to {
            case .server:
                let snapshot = try await LayoutCommand.store(try library.layoutNow(name), on: server, library: library)
                if try library.store.layout(named: name) != nil { try library.store.delete(named: name) }
                print(TerminalText.safe("moved \(name) to the server (canvas \(snapshot.id))"))
            case .local:
                guard try library.store.layout(named: name) == nil else {
                    throw CommandError(TerminalText.safe("a layout named \(name) is saved on this machine already: rename or delete it first"))
                }
                let client = try await server.client()
                let canvas = try await LayoutCommand.ownCanvas(named: name, on: client, doing: "move \(name) to this machine")
                let snapshot: CanvasSnapshot
                do {
                    snapshot = try await client.canvases.snapshot(canvas.id)
                } catch {
                    throw CommandError(explaining: error, doing: "read \(name) on the server")
                }
                var layout = snapshot.layout
                layout.name = name
                try library.store.save(layout)
                try library.store.forgetSharedCopy(named: name, server: try server.serverKey())
                do {
                    try await client.canvases.delete(canvas.id)
                } catch {
                    throw CommandError(explaining: error, doing: "delete \(name) on the server (it is saved on this machine too now)")
                }
                print(TerminalText.safe("moved \(name) to this machine"))
            }
        }
    }

    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Share a layout of yours on the server with a user: editors arrange it too, viewers see it live.")

        @Argument(help: "The layout's name (on the server: `layout move NAME --to server`).") var name: String
        @Argument(help: "The user to share it with.") var user: String
        @Option(help: "editor or viewer.") var role: CanvasRole = .viewer
        @OptionGroup var server: ServerOption

        func validate() throws {
            guard role != .owner else { throw ValidationError("--role is editor or viewer") }
        }

        func run() async throws {
            let client = try await server.client()
            let canvas = try await LayoutCommand.ownCanvas(named: name, on: client, doing: "share \(name) with \(user)")
            do {
                try await client.canvases.setMember(canvas.id, user, role: role)
            } catch {
                throw CommandError(explaining: error, doing: "share \(name) with \(user)")
            }
        }
    }

    struct Unshare: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unshare", abstract: "Stop sharing a layout of yours on the server with a user.")

        @Argument(help: "The layout's name.") var name: String
        @Argument(help: "The user.") var user: String
        @OptionGroup var server: ServerOption

        func run() async throws {
            let client = try await server.client()
            let canvas = try await LayoutCommand.ownCanvas(named: name, on: client, doing: "stop sharing \(name) with \(user)")
            do {
                try await client.canvases.removeMember(canvas.id, user)
            } catch {
                throw CommandError(explaining: error, doing: "stop sharing \(name) with \(user)")
            }
        }
    }

    struct Members: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "members", abstract: "List who a layout on the server is shared with: user and role.")

        @Argument(help: "The layout's name.") var name: String
        @OptionGroup var server: ServerOption

        func run() async throws {
            let client = try await server.client()
            let canvas = try await LayoutCommand.visibleCanvas(named: name, on: client, doing: "list who shares \(name)")
            let members: [CanvasMember]
            do {
                members = try await client.canvases.members(canvas.id)
            } catch {
                throw CommandError(explaining: error, doing: "list the members of \(name)")
            }
            for member in members { print(TerminalText.safe(member.user) + "\t" + member.role.rawValue) }
        }
    }

    /// Stores `layout` on the server as a canvas of the caller's, and keeps a copy here, so the
    /// dashboard opens it at once, and offline.
    @discardableResult
    static func store(_ layout: LayoutData, on server: ServerOption, library: DashboardLibrary) async throws -> CanvasSnapshot {
        let snapshot: CanvasSnapshot
        do {
            snapshot = try await server.client().canvases.create(layout)
        } catch let error as HTTPClientError {
            throw CommandError(explaining: error, doing: "store \(layout.name) on the server")
        }
        try library.store.keep(SharedCanvasCopy(first: snapshot), server: try server.serverKey())
        return snapshot
    }

    /// A first copy of the canvas `name` on the server (the caller's own, else one shared with
    /// them), to open in the dashboard.
    static func firstCopy(named name: String, on client: HTTPClient) async throws -> SharedCanvasCopy {
        let canvas = try await visibleCanvas(named: name, on: client, doing: "open \(name) on the server")
        do {
            return SharedCanvasCopy(first: try await client.canvases.snapshot(canvas.id))
        } catch {
            throw CommandError(explaining: error, doing: "read \(name) on the server")
        }
    }

    /// Every canvas on the server the caller owns or was given, page by page.
    /// - Parameter what: What the command does, for its error: `share mine with bob`.
    static func canvases(on client: HTTPClient, doing what: String = "list the layouts on the server") async throws -> [CanvasSummary] {
        do {
            return try await client.canvases.all()
        } catch {
            throw CommandError(explaining: error, doing: what)
        }
    }

    /// The caller's own canvas named `name`, found to do `what` (said if the server cannot be asked).
    static func ownCanvas(named name: String, on client: HTTPClient, doing what: String) async throws -> CanvasSummary {
        guard let canvas = try await canvases(on: client, doing: what).first(where: { $0.name == name && $0.role == .owner }) else {
            throw CommandError(TerminalText.safe("no layout of yours named \(name) on the server (`termcanvas layout move \(name) --to server`)"))
        }
        return canvas
    }

    /// The canvas named `name` the caller owns, else one shared with them.
    static func visibleCanvas(named name: String, on client: HTTPClient, doing what: String) async throws -> CanvasSummary {
        let named = try await canvases(on: client, doing: what).filter { $0.name == name }
        guard let canvas = named.first(where: { $0.role == .owner }) ?? named.first else {
            throw CommandError(TerminalText.safe("no layout named \(name) on the server"))
        }
        return canvas
    }
}

extension CanvasRole: ExpressibleByArgument {}

/// `termcanvas audit`: the server's audit log, newest first (admins only).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Print the server's audit log, newest first: when, who, what, on what (admins only).")

    @Option(help: "At most this many entries.") var limit: Int = 50
    @OptionGroup var server: ServerOption

    func validate() throws {
        guard (1...AuditLimits.entriesListed).contains(limit) else { throw ValidationError("--limit is 1 to \(AuditLimits.entriesListed)") }
    }

    func run() async throws {
        let client = try await server.client()
        var printed = 0
        var cursor: String?
        repeat {
            var query = [(name: "limit", value: String(min(AuditLimits.maxPageSize, limit - printed)))]
            if let cursor { query.append((name: "cursor", value: cursor)) }
            let page: Page<AuditEntry>
            do {
                page = try await client.get(APIPath.audit, query: query)
            } catch {
                throw CommandError(explaining: error, doing: "read the audit log")
            }
            for entry in page.items {
                print([entry.at, entry.actor, entry.action.rawValue, entry.target, entry.detail].map(TerminalText.safe).joined(separator: "\t"))
            }
            printed += page.items.count
            cursor = page.next
        } while cursor != nil && printed < limit
    }
}

/// `--bff URL` on a `layout` subcommand that reads or changes one layout: that server's layout of
/// the name (yours, else one shared with you) instead of this machine's.
struct ServerLayoutOption: ParsableArguments {
    @Option(help: ArgumentHelp("The layout on this server (after `termcanvas login`) instead of this machine's.", valueName: "URL"))
    var bff: String?

    /// The layout `name`: from the server with `--bff`, else saved here or a preset.
    func layout(named name: String) async throws -> LayoutData {
        guard let bff else {
            let library = try LayoutCommand.library()
            do {
                return try library.layoutNow(name)
            } catch LayoutStoreError.notFound {
                throw try await LayoutCommand.noLayout(named: name, in: library)
            }
        }
        return try await LayoutCommand.firstCopy(named: name, on: ServerOption.parse(["--bff", bff]).client()).replica.confirmed
    }
}

extension LayoutCommand {
    /// That this machine has no layout `name`, and the names of those it has.
    static func noLayout(named name: String, in library: DashboardLibrary, orOnServer problem: CommandError? = nil) async throws -> CommandError {
        let there = try await library.layoutNames().joined(separator: ", ")
        return CommandError(TerminalText.safe(problem.map { "no layout named '\(name)' on this machine (there are: \(there)), and \($0)" }
            ?? "no layout named '\(name)'; there are: \(there) (`termcanvas layout list` says more)"))
    }

    /// Deletes the caller's canvas `name` on the server, and this machine's copy of it.
    static func deleteOnServer(_ name: String, _ server: ServerOption) async throws {
        let client = try await server.client()
        let canvas = try await ownCanvas(named: name, on: client, doing: "delete \(name) on the server")
        do {
            try await client.canvases.delete(canvas.id)
        } catch {
            throw CommandError(explaining: error, doing: "delete \(name) on the server")
        }
        try library().store.forgetSharedCopy(named: name, server: try server.serverKey())
    }

    /// Renames the caller's canvas `name` on the server, and this machine's copy of it.
    static func renameOnServer(_ name: String, to newName: String, _ server: ServerOption) async throws {
        let client = try await server.client()
        let canvas = try await ownCanvas(named: name, on: client, doing: "rename \(name) on the server")
        do {
            _ = try await client.canvases.rename(canvas.id, to: newName)
        } catch {
            throw CommandError(explaining: error, doing: "rename \(name) on the server")
        }
        let store = try library().store
        let key = try server.serverKey()
        if var copy = try store.sharedCopy(named: name, server: key) {
            copy.replica.rename(to: newName)
            try store.keep(copy, server: key)
        }
    }

    /// Brings back the arrangement the canvas `name` had at `version`: the steps from its layout now
    /// to that one, sent as edits of a session of their own, so every member sees them and each
    /// counts once.
    static func revertOnServer(_ name: String, toVersion version: Int, _ server: ServerOption) async throws {
        let client = try await server.client()
        let canvas = try await visibleCanvas(named: name, on: client, doing: "revert \(name) on the server")
        guard canvas.role.mayEdit else { throw CommandError(TerminalText.safe("you may view \(name) but not arrange it")) }
        let then: CanvasVersion, now: CanvasSnapshot
        do {
            then = try await client.canvases.version(canvas.id, version)
            now = try await client.canvases.snapshot(canvas.id)
        } catch {
            throw CommandError(explaining: error, doing: "read version \(version) of \(name)")
        }
        // Replaying keeps the panes there now in their order, then adds those brought back.
        var wanted = then.layout
        wanted.name = now.layout.name
        let order = now.layout.panes.map(\.id)
        wanted.panes = wanted.panes.enumerated()
            .sorted { ((order.firstIndex(of: $0.element.id) ?? order.count), $0.offset) < ((order.firstIndex(of: $1.element.id) ?? order.count), $1.offset) }
            .map(\.element)
        guard let steps = CanvasOperation.operations(from: now.layout, to: wanted) else {
            throw CommandError(TerminalText.safe("version \(version) of \(name) cannot be brought back as arrangement steps from its layout now"))
        }
        let session = UUID().uuidString.lowercased()
        for (number, step) in steps.enumerated() {
            let answer: CanvasEditAnswer
            do {
                answer = try await client.canvases.submit(CanvasEdit(session: session, sequence: number + 1, operation: step), to: canvas.id)
            } catch {
                throw CommandError(explaining: error, doing: "revert \(name)")
            }
            if answer.outcome == .refused {
                throw CommandError(TerminalText.safe("the server refused step \(number + 1) of \(steps.count) (\(answer.reason ?? "")): "
                                                     + "\(name) changed meanwhile; the steps before it are in"))
            }
        }
    }

    /// Prints the changes the server keeps of the canvas `name`, oldest first: version, author,
    /// operation and pane.
    /// Each change as `version, who, what` in words, or with `json` as one line of JSON (keys
    /// sorted) for scripts.
    static func printChanges(of name: String, on client: HTTPClient, json: Bool) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let canvas = try await visibleCanvas(named: name, on: client, doing: "list the changes of \(name) on the server")
        var cursor: String?
        repeat {
            let page: Page<CanvasChange>
            do {
                page = try await client.canvases.changes(canvas.id, after: cursor)
            } catch {
                throw CommandError(explaining: error, doing: "read the changes of \(name)")
            }
            for change in page.items {
                if json {
                    print(TerminalText.safe(String(decoding: (try? encoder.encode(change)) ?? Data(), as: UTF8.self)))
                } else {
                    print(["\(change.version)", change.author, change.operation.summary].map(TerminalText.safe).joined(separator: "\t"))
                }
            }
            cursor = page.next
        } while cursor != nil
    }
}
