import CanvasCore

/// Every command and the keys it has now: dispatch, the help overlay, the status bar hints, the
/// palette and the overlays' own key labels all read this one table, so they cannot disagree.
public struct CommandTable: Sendable {
    /// In the order the help lists them.
    public let commands: [Command]
    private let byID: [CommandID: Command]
    private var keysByCommand: [CommandID: [Key]]
    private var commandsByKey: [Key: [CommandID]]

    /// The table with every command's default keys.
    /// - Precondition: ids are unique and no key is bound twice in overlapping contexts; the
    ///   tests check the defaults.
    public init(_ commands: [Command]) {
        self.commands = commands
        byID = Dictionary(commands.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        keysByCommand = Dictionary(commands.map { ($0.id, $0.defaultKeys.map(\.normalized)) }, uniquingKeysWith: { first, _ in first })
        commandsByKey = [:]
        for command in commands {
            for key in command.defaultKeys { commandsByKey[key.normalized, default: []].append(command.id) }
        }
    }

    /// The canvas's commands and those of every widget the catalog can mount, with default keys.
    public static func standard(for catalog: WidgetCatalog) -> CommandTable {
        CommandTable(CanvasCommands.all + catalog.all.flatMap(\.commands))
    }

    public func command(_ id: CommandID) -> Command? { byID[id] }

    /// The keys a command has now, the user's first.
    public func keys(for id: CommandID) -> [Key] { keysByCommand[id] ?? [] }

    /// The first of a command's keys that `matches`, as the status bar writes it (`^Q`); nil
    /// when it has none.
    public func label(for id: CommandID, where matches: (Key) -> Bool = { _ in true }) -> String? {
        keys(for: id).first(where: matches).map(KeyLabel.short)
    }

    /// The command a key runs in the first of `contexts` (most specific first) that binds it.
    /// With `beforeTyping`, only commands that act over a text field, by keys that type nothing.
    public func command(for key: Key, in contexts: [CommandContext], beforeTyping: Bool = false) -> Command? {
        let key = key.normalized
        if beforeTyping, key.text != nil { return nil }
        let bound = (commandsByKey[key] ?? []).compactMap { byID[$0] }.filter { !beforeTyping || $0.whileTyping }
        for context in contexts {
            if let command = bound.first(where: { $0.context == context }) { return command }
        }
        return nil
    }

    /// The commands that apply in `contexts`, in help order.
    public func commands(in contexts: [CommandContext]) -> [Command] {
        commands.filter { contexts.contains($0.context) }
    }

    /// Every pair of commands that one key would reach at once; empty for a usable table.
    public var conflicts: [(key: Key, first: CommandID, second: CommandID)] {
        var found: [(Key, CommandID, CommandID)] = []
        for (key, ids) in commandsByKey.sorted(by: { $0.key.name < $1.key.name }) {
            for (index, first) in ids.enumerated() {
                for second in ids[(index + 1)...] where byID[first]!.context.overlaps(byID[second]!.context) {
                    found.append((key, first, second))
                }
            }
        }
        return found
    }

    /// The status bar's hints for `contexts`, in their order: each hinted command with its first key; commands
    /// that share a hint (the four arrows of "move") are shown as one. While a text field has the
    /// keys (`typing`), a key that types (`?`, `q`) reaches the field, not the command: the hint
    /// names the command's first key that does not type (F1, Ctrl-Q), or leaves it out.
    public func hints(in contexts: [CommandContext], typing: Bool = false) -> [KeyHint] {
        var groups: [(hint: String, keys: [Key])] = []
        for command in contexts.flatMap({ context in commands.filter { $0.context == context } }) {
            guard let hint = command.hint, let key = keys(for: command.id).first(where: { !typing || $0.text == nil }) else { continue }
            if groups.last?.hint == hint { groups[groups.count - 1].keys.append(key) } else { groups.append((hint, [key])) }
        }
        return groups.map { KeyHint(keys: KeyLabel.group($0.keys), action: $0.hint) }
    }

    /// The table after a user's key map: its unbinds, then its binds, which come before the
    /// defaults. A bind to a key another command holds in an overlapping context is refused.
    public func applying(_ map: KeyMapEdits) throws(KeyMapProblem) -> CommandTable {
        var table = self
        for unbind in map.unbinds {
            switch unbind.target {
            case .key(let key):
                guard let ids = table.commandsByKey.removeValue(forKey: key.normalized) else {
                    throw KeyMapProblem(line: unbind.line, field: "unbind", message: "\(key.name) is not bound to anything")
                }
                for id in ids { table.keysByCommand[id]?.removeAll { $0 == key.normalized } }
            case .command(let id):
                guard byID[id] != nil else { throw table.unknown(id, line: unbind.line, field: "unbind") }
                for key in table.keysByCommand[id] ?? [] { table.commandsByKey[key]?.removeAll { $0 == id } }
                table.keysByCommand[id] = []
            }
        }
        var userKeys: [CommandID: Int] = [:]
        for bind in map.binds {
            guard let command = byID[bind.command] else { throw table.unknown(bind.command, line: bind.line, field: "bind.\(bind.key.name)") }
            let key = bind.key.normalized
            let holders = (table.commandsByKey[key] ?? []).filter { $0 != command.id && byID[$0]!.context.overlaps(command.context) }
            if let holder = holders.first {
                throw KeyMapProblem(line: bind.line, field: "bind.\(bind.key.name)",
                                    message: "\(bind.key.name) already runs \(holder); add it to unbind first")
            }
            // The same key written twice (`esc` and `escape`): once is enough.
            if (table.keysByCommand[command.id] ?? []).prefix(userKeys[command.id, default: 0]).contains(key) { continue }
            table.keysByCommand[command.id, default: []].removeAll { $0 == key }
            table.commandsByKey[key, default: []].removeAll { $0 == command.id }
            // The user's keys come first, in the file's order, so help and hints show them.
            table.keysByCommand[command.id, default: []].insert(key, at: userKeys[command.id, default: 0])
            userKeys[command.id, default: 0] += 1
            table.commandsByKey[key, default: []].append(command.id)
        }
        return table
    }

    private func unknown(_ id: CommandID, line: Int?, field: String) -> KeyMapProblem {
        let near = NearestName.among(commands.map(\.id.rawValue), to: id.rawValue)
        let suggestion = near.map { "; did you mean \($0)? (termcanvas keys lists them all)" } ?? ""
        return KeyMapProblem(line: line, field: field, message: "no command named \(id)\(suggestion)")
    }
}
