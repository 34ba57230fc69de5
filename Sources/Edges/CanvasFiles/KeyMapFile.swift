import CanvasCore
import YAMLDocuments

/// The user's key map, `$XDG_CONFIG_HOME/termcanvas/keys.yaml`: keys given to commands and keys
/// taken away, over the defaults.
///
/// ```yaml
/// bind:
///   "ctrl+j": canvas.focus.next
///   "ctrl+b": chat.channel.previous
/// unbind:
///   - tab                    # whatever the key runs
///   - canvas.focus.pane9     # every key of the command
/// ```
///
/// Key names are those of `Key.name`: modifiers `ctrl+`, `alt+`, `shift+`, then a character or
/// `space`, `enter`, `tab`, `backtab`, `escape`, `backspace`, `delete`, `insert`, arrows (`up`…),
/// `home`, `end`, `pageup`, `pagedown`, `f1`…`f12`. Every mistake names file:line.
public enum KeyMapFile {
    /// `problem`, a change the commands refuse (`CommandTable.applying`), as an error naming the
    /// file and line.
    public static func error(_ problem: KeyMapProblem, file: String) -> FileError {
        FileError(file: file, line: problem.line, column: nil, field: problem.field, message: problem.message)
    }

    public static func parse(_ text: String, file: String) throws -> KeyMapEdits {
        let reader = YAMLReader(file: file)
        guard let root = try reader.optionalRoot(of: text) else { return KeyMapEdits() }
        try reader.rejectUnknownKeys(in: root, allowed: ["bind", "unbind"], field: "")
        var edits = KeyMapEdits()
        if let bind = root["bind"] {
            for (keyNode, commandNode) in try reader.mapping(bind, field: "bind") {
                let name = try reader.string(keyNode, field: "bind")
                let key = try self.key(name, at: keyNode, field: "bind.\(name)", reader: reader)
                let command = try reader.string(commandNode, field: "bind.\(name)")
                edits.binds.append(KeyMapEdits.Bind(key: key, command: CommandID(rawValue: command), line: commandNode.mark?.line))
            }
        }
        if let unbind = root["unbind"] {
            for item in try reader.sequence(unbind, field: "unbind") {
                let name = try reader.string(item, field: "unbind")
                // A key name, else a command's (they have dots; `alt+.` is a key).
                let target: KeyMapEdits.Unbind.Target = if let key = Key(name: name) {
                    .key(key)
                } else if name.contains(".") {
                    .command(CommandID(rawValue: name))
                } else {
                    .key(try key(name, at: item, field: "unbind", reader: reader))
                }
                edits.unbinds.append(KeyMapEdits.Unbind(target, line: item.mark?.line))
            }
        }
        return edits
    }

    private static func key(_ name: String, at node: Node, field: String, reader: YAMLReader) throws -> Key {
        guard let key = Key(name: name) else {
            throw reader.error(at: node, field: field,
                               "'\(name)' is not a key name; write e.g. ctrl+j, alt+1, shift+up, f1, space, ? (termcanvas keys lists the keys in use)")
        }
        return key
    }
}
