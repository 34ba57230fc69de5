import AppPanes
import ArgumentParser
import CanvasCore
import CanvasUI
import CommandSupport
import FoundationEssentials
import Logging
import PlainText

/// `termcanvas keys`: the key map in effect, the defaults changed by the user's `keys.yaml`.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Print the key map in effect: every command, its keys and what it does.",
        discussion: """
            Keys are changed in $XDG_CONFIG_HOME/termcanvas/keys.yaml:
              bind: { "ctrl+j": canvas.focus.next }
              unbind: [ tab ]
            A mistake there is reported with its file and line, and the dashboard then uses the default keys.
            """
    )

    func run() async throws {
        let lines = try await Self.lines(paths: Paths(environment: ProcessInfo.processInfo.environment))
        print(lines.joined(separator: "\n"))
    }

    @MainActor
    static func lines(paths: Paths) throws -> [String] {
        let logger = Logger(label: "termcanvas.keys", factory: { _ in SwiftLogNoOpLogHandler() })
        let catalog = WidgetCatalog.standard(apps: InstalledApps(paths: paths).inertDescriptors)
        let table: CommandTable
        do {
            table = try Composition(paths: paths, logger: logger).commandTable(for: catalog)
        } catch {
            Console.error((TerminalText.safe("\(error)") + "\n"))
            throw ExitCode(1)
        }
        let sections: [(String, CommandContext)] = [("Everywhere", .canvas), ("Normal mode", .normal), ("Arrange mode", .arrange),
                                                    ("Any micro-app you added", .microApp)]
            + catalog.all.map { ($0.name, .widget($0.kind)) }
        let idWidth = table.commands.map(\.id.rawValue.count).max() ?? 0
        var lines: [String] = []
        for (heading, context) in sections {
            let commands = table.commands(in: [context])
            guard !commands.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(heading)
            for command in commands {
                let keys = table.keys(for: command.id).map(\.name)
                let id = command.id.rawValue.padded(toLength: idWidth)
                let keyText = (keys.isEmpty ? "-" : keys.joined(separator: ", ")).padded(toLength: 22)
                lines.append("  \(id)  \(keyText)  \(command.title)")
            }
        }
        return lines
    }
}
