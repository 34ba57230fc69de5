import ArgumentParser
import CanvasCore
import CanvasUI

/// "Did you mean …?" for a mistyped subcommand (`termcanvas layuot list`): the parser alone
/// says only that the word is unexpected.
enum CommandTypo {
    /// The message for the first word of `arguments` that is not a subcommand where one is
    /// expected but is near one; nil when there is none (the parser then has its say).
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root.configuration.commandName ?? ""]
        for argument in arguments {
            // Options, and whatever follows them, are the parser's.
            guard !argument.hasPrefix("-") else { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { $0.configuration.commandName == argument }) {
                command = next
                path.append(argument)
                continue
            }
            let names = subcommands.compactMap { $0.configuration.commandName }
            guard let near = NearestName.among(names, to: argument, maximumDistance: 2) else { return nil }
            let at = path.joined(separator: " ")
            return TerminalText.safe("\(at) has no command '\(argument)'; did you mean '\(at) \(near)'? (`\(at) --help` lists them)")
        }
        return nil
    }
}
