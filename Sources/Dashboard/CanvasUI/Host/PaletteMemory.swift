import CanvasCore

/// What the command palette remembers between openings: the commands run from it, most recent
/// first (it lists them first), and the layouts' and themes' names as last listed, so it opens
/// with them at once.
struct PaletteMemory {
    /// How many recent commands it keeps.
    static let recentLimit = 8

    private(set) var recentCommands: [CommandID] = []
    var layouts: [String] = []
    var themes: [String] = []

    /// `id` was run from the palette: first of the recent commands.
    mutating func ran(_ id: CommandID) {
        recentCommands.removeAll { $0 == id }
        recentCommands.insert(id, at: 0)
        recentCommands = Array(recentCommands.prefix(Self.recentLimit))
    }
}
