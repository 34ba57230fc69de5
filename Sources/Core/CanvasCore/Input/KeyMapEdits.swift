/// A user's changes to the default keys, as read from `keys.yaml`: keys taken away, then keys
/// given, each with the line it came from.
public struct KeyMapEdits: Equatable, Sendable {
    public struct Bind: Equatable, Sendable {
        public let key: Key
        public let command: CommandID
        public let line: Int?

        public init(key: Key, command: CommandID, line: Int?) {
            self.key = key
            self.command = command
            self.line = line
        }
    }

    public struct Unbind: Equatable, Sendable {
        public enum Target: Equatable, Sendable {
            /// Whatever the key runs.
            case key(Key)
            /// Every key of the command.
            case command(CommandID)
        }

        public let target: Target
        public let line: Int?

        public init(_ target: Target, line: Int?) {
            self.target = target
            self.line = line
        }
    }

    public var binds: [Bind]
    public var unbinds: [Unbind]

    public init(binds: [Bind] = [], unbinds: [Unbind] = []) {
        self.binds = binds
        self.unbinds = unbinds
    }
}

/// Why a key map cannot be applied, and where; the file reader adds the file's name.
public struct KeyMapProblem: Error, Equatable, Sendable {
    public let line: Int?
    public let field: String
    public let message: String

    public init(line: Int?, field: String, message: String) {
        self.line = line
        self.field = field
        self.message = message
    }
}
