import CanvasUI
import MicroAppModel

extension WidgetCatalog {
    /// Every widget kind TermCanvas ships, in catalog order; the micro-apps send their commands
    /// to `commands`.
    public static func standard(commands: AppCommands) -> WidgetCatalog {
        WidgetCatalog([
            TodoWidget.descriptor(commands: commands),
            CalendarWidget.descriptor(commands: commands),
            ChatWidget.descriptor(commands: commands),
            EventLogWidget.descriptor,
        ])
    }

    /// The catalog of a canvas without backends (`termcanvas render`, tests, benchmarks).
    public static var builtIn: WidgetCatalog { standard(commands: .none) }
}
