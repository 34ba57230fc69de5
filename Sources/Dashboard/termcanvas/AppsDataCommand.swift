import ArgumentParser
import CanvasUI
import CommandSupport
import FoundationEssentials
import MicroAppHost
import MicroAppProtocol
import PlainText
import ServerAPI

extension AppsCommand {
    /// `termcanvas apps data ID [--clear]`: what an app keeps in its data folder and where, and
    /// emptying it, so an app over its `limits.disk` (stopped at each start) need not be found by hand.
    struct AppData: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "data",
            abstract: "Show what a micro-app keeps in its data folder, and where; --clear empties it (asking first).",
            discussion: """
                An app keeps what lasts between its runs in a folder of its own ($TERMCANVAS_DATA). Past its limits.disk, \
                or past \(AppDataFolder.entriesLimit) files, it is stopped at each start until the folder is emptied.
                """)

        @Argument(help: "The app's id (an app removed since is accepted too, for what it left).") var id: String
        @Flag(help: "Empty the folder (the app starts afresh, as on its first run).") var clear = false
        @Flag(help: "With --clear: empty it without asking (for scripts).") var yes = false

        func run() async throws {
            let paths = AppsCommand.paths
            let installed = AppsCommand.folders(paths).scan().apps.first { $0.id == id }
            guard installed != nil || ManifestRules.isAppID(id) else {
                throw CommandError("'\(TerminalText.safe(id))' is not a micro-app's id (`termcanvas apps list` shows the installed ones)")
            }
            let folder = AppDataFolder(appID: id, in: paths.appDataDirectory)
            let name = TerminalText.safe(id), path = TerminalText.safe(folder.url.path)
            guard folder.exists else {
                return print("\(name) keeps nothing: it has no data folder (\(path)) yet" + (installed == nil ? " and is not installed" : ""))
            }
            let usage = folder.usage()
            let more = usage.entries > AppDataFolder.entriesLimit ? " or more" : ""
            print("\(name) keeps \(ByteCount.words(usage.bytes)) in \(usage.entries)\(more) files and folders in \(path)")
            let limit = (installed?.manifest.limits ?? AppManifest.Limits()).diskBytes
            let over = AppDataFolder.isOver(usage, bytesLimit: limit)
            if installed != nil {
                print("Its limit: \(ByteCount.words(limit)) (limits.disk in its app.yaml) and \(AppDataFolder.entriesLimit) files"
                      + (over ? "; it is over, so it is stopped at each start until emptied" : ""))
            }
            guard clear else {
                if over || installed == nil { print("termcanvas apps data \(name) --clear empties it") }
                return
            }
            if !yes {
                guard Confirmation.ask("Empty it? What \(name) kept is gone for good (y/N)", enterSays: false) else {
                    guard Confirmation.isInteractive else {
                        throw CommandError("\(name)'s data folder was not emptied: no yes came (standard input is not a terminal); "
                                           + "`termcanvas apps data \(name) --clear --yes` empties it without asking")
                    }
                    return print("Kept as it is.")
                }
            }
            do {
                try folder.clear()
            } catch {
                throw CommandError(TerminalText.safe(error.description))
            }
            print("Emptied \(path): \(name) starts afresh at its next start" + (installed == nil ? "" : " (F5 in its pane restarts it now)"))
        }
    }
}
