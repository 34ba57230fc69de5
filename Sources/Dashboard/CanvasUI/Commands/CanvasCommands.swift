import CanvasCore

extension CommandID {
    public static let focusNext: CommandID = "canvas.focus.next"
    public static let focusPrevious: CommandID = "canvas.focus.previous"
    public static let help: CommandID = "canvas.help"
    public static let palette: CommandID = "canvas.palette"
    public static let quit: CommandID = "canvas.quit"
    public static let arrange: CommandID = "canvas.arrange"
    public static let saveLayout: CommandID = "layout.save"
    public static let openLayout: CommandID = "layout.open"
    public static let restorePreset: CommandID = "layout.restore"
    public static let undo: CommandID = "layout.undo"
    public static let redo: CommandID = "layout.redo"
    public static let pickTheme: CommandID = "theme.pick"
    public static let messages: CommandID = "canvas.messages"
    public static let addPane: CommandID = "pane.add"
    public static let removePane: CommandID = "pane.remove"
    public static let paneSettings: CommandID = "pane.settings"
    public static let zoomPane: CommandID = "pane.zoom"
    public static let arrangeDone: CommandID = "arrange.done"
    public static let newApp: CommandID = "app.new"
    public static let restartApp: CommandID = "app.restart"

    /// `canvas.focus.left` …: focus the pane in that direction.
    public static func focus(_ direction: Direction) -> CommandID { CommandID(rawValue: "canvas.focus.\(direction.rawValue)") }
    /// `canvas.focus.pane1` … `canvas.focus.pane9`.
    public static func focus(pane number: Int) -> CommandID { CommandID(rawValue: "canvas.focus.pane\(number)") }
    /// `pane.move.left` …: move the focused pane one grid unit.
    public static func move(_ direction: Direction) -> CommandID { CommandID(rawValue: "pane.move.\(direction.rawValue)") }
    /// `pane.resize.right` …: move the focused pane's right or bottom edge.
    public static func resize(_ direction: Direction) -> CommandID { CommandID(rawValue: "pane.resize.\(direction.rawValue)") }
}

/// The canvas's own commands with their default keys, in the order the help lists them.
public enum CanvasCommands {
    static let directions: [Direction] = [.left, .up, .down, .right]

    public static let all: [Command] = everywhere + normal + microApp + arrange

    static let everywhere: [Command] = [
        Command(.focusNext, "Focus the next pane", in: .canvas, keys: [.tab], hint: "focus", whileTyping: true),
        Command(.focusPrevious, "Focus the previous pane", in: .canvas, keys: [.backTab], whileTyping: true),
        Command(.palette, "Command palette: find any command by name", in: .canvas, keys: [.ctrl("p"), .char(":")], hint: "commands",
                whileTyping: true),
        Command(.help, "Help: every command and its keys", in: .canvas, keys: [.char("?"), Key(.function(1))], hint: "help",
                whileTyping: true),
        Command(.quit, "Quit, once the layout is saved", in: .canvas, keys: [.char("q"), .ctrl("q"), .ctrl("c")], hint: "quit",
                whileTyping: true),
    ] + directions.map { direction in
        Command(.focus(direction), "Focus the pane \(Self.word(direction))", in: .canvas, keys: [Key(direction.keyCode, .alt)],
                hint: "focus dir", whileTyping: true)
    } + (1...9).map { number in
        Command(.focus(pane: number), "Focus pane \(number) (its number is in its title)", in: .canvas,
                keys: [.alt(.char(Character("\(number)")))], whileTyping: true)
    } + [
        Command(.saveLayout, "Save the layout under a name", in: .canvas, keys: [.ctrl("s")], whileTyping: true),
        Command(.openLayout, "Open a layout (filter, load, Ctrl-D delete, Ctrl-R rename)", in: .canvas, keys: [.ctrl("o")], whileTyping: true),
        Command(.pickTheme, "Choose a theme (live preview)", in: .canvas, keys: [.ctrl("t")], whileTyping: true),
        Command(.messages, "Messages: every notice and error of this session, in full", in: .canvas, keys: [.ctrl("g")], whileTyping: true),
        Command(.zoomPane, "Zoom: the focused pane alone over the whole canvas, and back (as tmux's prefix z)", in: .canvas,
                keys: [.alt(.char("z"))], whileTyping: true),
        Command(.newApp, NewAppOverlay.entryTitle + " (describe it; a language model writes it)", in: .canvas, keys: [Key(.function(2))],
                whileTyping: true),
    ]

    static let normal: [Command] = [
        Command(.arrange, "Arrange panes: move, resize, add, remove", in: .normal, keys: [.ctrl("e")], hint: "arrange"),
    ]

    /// The focused micro-app's widget performs these (`Widget.perform`).
    static let microApp: [Command] = [
        Command(.restartApp, "Restart the micro-app, running or not, with its saved state", in: .microApp, keys: [Key(.function(5))]),
    ]

    static let arrange: [Command] = directions.map { direction in
        Command(.move(direction), "Move the pane \(direction.rawValue) (swaps with a pane in the way)", in: .arrange,
                keys: [Key(direction.keyCode)], hint: "move")
    } + directions.map { direction in
        Command(.resize(direction), Self.resizeTitle(direction), in: .arrange, keys: [Key(direction.keyCode, .shift)], hint: "resize")
    } + [
        Command(.addPane, "Add a widget from the catalog (in free room, or splitting the focused pane)", in: .arrange, keys: [.char("a")], hint: "add"),
        Command(.removePane, "Remove (close) the focused pane (asks first)", in: .arrange, keys: [.char("x")], hint: "remove"),
        Command(.paneSettings, "Settings of the focused widget", in: .arrange, keys: [.char("s")], hint: "settings"),
        Command(.undo, "Undo the last arrangement step", in: .arrange, keys: [.char("u")], hint: "undo"),
        Command(.restorePreset, "Restore the preset this layout was changed from (your changes stay under their name)", in: .arrange,
                keys: [.char("p")]),
        Command(.redo, "Redo", in: .arrange, keys: [.ctrl("r")], hint: "redo"),
        Command(.arrangeDone, "Back to normal mode", in: .arrange, keys: [.enter, .escape], hint: "done"),
    ]

    private static func word(_ direction: Direction) -> String {
        switch direction {
        case .left: "to the left"
        case .right: "to the right"
        case .up: "above"
        case .down: "below"
        }
    }

    private static func resizeTitle(_ direction: Direction) -> String {
        switch direction {
        case .right: "Resize: grow the pane right, wider (shrinks neighbours)"
        case .down: "Resize: grow the pane down, taller (shrinks neighbours)"
        case .left: "Resize: shrink the pane from the right, narrower"
        case .up: "Resize: shrink the pane from the bottom, shorter"
        }
    }
}

extension Direction {
    /// The arrow key of this direction.
    var keyCode: KeyCode {
        switch self {
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        }
    }
}
