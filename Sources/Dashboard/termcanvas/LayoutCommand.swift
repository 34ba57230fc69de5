import AppPanes
import ArgumentParser
import CanvasCore
import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import LayoutStore
import Logging

/// `termcanvas layout …`: manage saved layouts from scripts. Quiet on success; errors on stderr
/// with a non-zero exit status.
struct LayoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "List, show, export, import, delete, rename and revert layouts; move them to a server and share them.",
        subcommands: [List.self, Show.self, Export.self, Import.self, Delete.self, Rename.self, History.self, Revert.self,
                      Move.self, Share.self, Unshare.self, Members.self]
    )

    /// The user's library, as the dashboard sees it.
    static func library() throws -> DashboardLibrary {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let opened = try LayoutStore.open(at: paths.layoutDatabase)
        if let recovered = opened.recovered { Console.error("termcanvas: \(recovered)\n") }
        return DashboardLibrary(store: opened.store,
                                presets: .standard(configDirectory: paths.configDirectory, executable: Paths.executable),
                                adaptTheme: { $0 })
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List saved layouts and presets; with --bff, the layouts on that server too, and where each lives.",
            discussion: "One layout a line, tab-separated; a header line first when the output is a terminal, none for a script.")

        @Option(help: ArgumentHelp("Also list the layouts on this server (after `termcanvas login`): yours, and those shared with you.",
                                   valueName: "URL"))
        var bff: String?

        func run() async throws {
            var library = try LayoutCommand.library()
            library.server = try ServerOption.parse(bff.map { ["--bff", $0] } ?? []).serverKey()
            // With --bff, the server's own list says where its canvases live.
            let local = try await library.summaries().filter { bff == nil || $0.sharing == nil }
            // A header for a reader; a script piping the list gets the rows alone, as before.
            if isatty(STDOUT_FILENO) == 1 { print("NAME\tPANES\tSAVED" + (bff == nil ? "" : "\tWHERE")) }
            for item in local {
                let when = item.sharing.map { TerminalText.safe($0.description) } ?? item.updatedAt.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } ?? "preset"
                print("\(item.name)\t\(item.paneCount ?? 0) panes\t\(when)\(bff == nil ? "" : "\tlocal")")
            }
            guard let bff else { return }
            let client = try await ServerOption.parse(["--bff", bff]).client()
            for canvas in try await LayoutCommand.canvases(on: client) {
                let place = canvas.role == .owner ? "on the server" : "shared with you by \(canvas.owner) (\(canvas.role.rawValue))"
                let when = canvas.updatedAt.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } ?? "version \(canvas.version)"
                print([canvas.name, canvas.panes.map { "\($0) panes" } ?? "-", when, place].map(TerminalText.safe).joined(separator: "\t"))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a layout as a file and as a text render.")

        @Argument(help: "A saved or preset layout name.") var name: String
        @Option(help: "Size of the render, COLSxROWS.") var size: String = "100x30"
        @OptionGroup(title: "On a server") var server: ServerLayoutOption

        func run() async throws {
            guard let renderSize = Size(parsing: size) else { throw ValidationError("--size must look like 100x30") }
            let layout = try await server.layout(named: name)
            print(try LayoutFile.export(layout))
            let paths = Paths(environment: ProcessInfo.processInfo.environment)
            print(try await Render.render(options: try CanvasOptions.parse([]), paths: paths, size: renderSize, ansi: false, layout: layout)
                .joined(separator: "\n"))
        }
    }

    /// Writes a layout as a file people share: panes, frames and settings. Each pane's state
    /// (a chat line's input history, the selected day, scroll positions) is the user's own and
    /// stays out unless `--with-state` asks for it.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a layout file (to standard output without FILE): panes, frames and settings, not what you did in them.")

        @Argument(help: "A saved or preset layout name.") var name: String
        @Argument(help: "The file to write.") var file: String?
        @Flag(help: "Include each pane's state too (input history, selected day, scroll positions): yours, not for sharing.")
        var withState = false
        @OptionGroup(title: "On a server") var server: ServerLayoutOption

        func run() async throws {
            var layout = try await server.layout(named: name)
            if !withState { layout.panes = layout.panes.map { pane in Pane(id: pane.id, app: pane.app, frame: pane.frame, config: pane.config) } }
            let text = try LayoutFile.export(layout)
            guard let file else { return print(text, terminator: "") }
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        }
    }

    struct Import: AsyncParsableCommand {
        /// A pane of an app not installed here still imports (the layout may be for another
        /// machine, or a registry's app), but says so now, not later as an unavailable pane.
        static func warnOfMissingApps(in layout: LayoutData) {
            let installed = Set(InstalledApps(paths: AppsCommand.paths).apps.map { AppKind($0.id) }).union(AppKind.builtIn)
            for pane in layout.panes where !installed.contains(pane.app) {
                Console.error(TerminalText.safe(
                    "note: pane \(pane.id.rawValue) is app '\(pane.app.rawValue)', which is not installed here; it shows as unavailable " +
                    "until `termcanvas apps add FOLDER` installs it (`termcanvas apps list` shows what is)\n"))
            }
        }

        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Store a layout file under its name (or --name); with --bff, on that server, where it can be shared.")

        @Argument(help: "The layout file.") var file: String
        @Option(help: "Store it under this name instead of the one in the file.") var name: String?
        @Flag(help: "Replace a saved layout of the same name.") var replace = false
        @Option(help: ArgumentHelp("Store it on this server (after `termcanvas login`) as a canvas of yours.", valueName: "URL"))
        var bff: String?

        func run() async throws {
            var layout = try LayoutFile.parse(try TextFile.read(URL(fileURLWithPath: file), shownAs: file), file: file)
            if let name { layout.name = name }
            if bff == nil { Self.warnOfMissingApps(in: layout) }
            let library = try LayoutCommand.library()
            if let bff {
                let snapshot = try await LayoutCommand.store(layout, on: ServerOption.parse(["--bff", bff]), library: library)
                return print(TerminalText.safe("stored \(layout.name) on the server (canvas \(snapshot.id))"))
            }
            if !replace, try library.store.load(named: layout.name) != nil {
                throw LayoutStoreError.nameTaken(name: layout.name)
            }
            if library.presets.layoutNames().contains(layout.name) {
                throw CommandError("'\(layout.name)' is a preset and stays as its file has it: name the layout with --name NAME")
            }
            try library.store.save(layout)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a saved layout; with --bff, a layout of yours on that server (for everyone it was shared with).")
        @Argument var name: String
        @OptionGroup(title: "On a server") var server: ServerLayoutOption

        func run() async throws {
            guard let bff = server.bff else { return try LayoutCommand.library().store.delete(named: name) }
            try await LayoutCommand.deleteOnServer(name, try ServerOption.parse(["--bff", bff]))
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a saved layout; with --bff, a layout of yours on that server (for everyone it was shared with).")
        @Argument var old: String
        @Argument var new: String
        @OptionGroup(title: "On a server") var server: ServerLayoutOption

        func run() async throws {
            guard let bff = server.bff else { return try LayoutCommand.library().store.rename(old, to: new) }
            try await LayoutCommand.renameOnServer(old, to: new, try ServerOption.parse(["--bff", bff]))
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List the arrangement steps of a saved layout; with --bff, the changes of a layout on that server: version, who, what.")
        @Argument var name: String
        @Flag(help: "With --bff: each change as one line of JSON, for scripts.") var json = false
        @OptionGroup(title: "On a server") var server: ServerLayoutOption

        func run() async throws {
            if let bff = server.bff {
                return try await LayoutCommand.printChanges(of: name, on: try ServerOption.parse(["--bff", bff]).client(), json: json)
            }
            for entry in try LayoutCommand.library().store.history(named: name) {
                print("\(entry.position)\t\(entry.time.formatted(.iso8601))\t\(entry.step)\(entry.isCurrent ? "\t(current)" : "")")
            }
        }
    }

    struct Revert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revert",
            abstract: """
                Bring back the arrangement of an earlier step (as a new step, so it can be undone); with --bff, of a layout \
                on that server (the steps from now to that version, as edits everyone sees).
                """)
        @Argument var name: String
        @Argument(help: "The step number, from `layout history` (with --bff, the version).") var step: Int
        @OptionGroup(title: "On a server") var server: ServerLayoutOption

        func run() async throws {
            guard let bff = server.bff else { return _ = try LayoutCommand.library().store.revert(named: name, toStep: step) }
            try await LayoutCommand.revertOnServer(name, toVersion: step, try ServerOption.parse(["--bff", bff]))
        }
    }
}
