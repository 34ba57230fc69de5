import ArgumentParser
import CalendarTime
import CanvasCore

/// Options every command that builds a canvas shares.
struct CanvasOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The layout to show: a saved or preset name, or a layout file.", valueName: "NAME|FILE"))
    var layout: String?

    @Option(help: ArgumentHelp("The colour theme (remembered for the next start).", valueName: "NAME"))
    var theme: String?

    @Option(name: .customLong("date"), help: ArgumentHelp("Pretend today is this day (YYYY-MM-DD).", visibility: .hidden))
    var today: String?

    func validate() throws {
        if let today, CalendarDate(iso: today) == nil {
            throw ValidationError("--date must be a day like 2026-11-22, got '\(today)'")
        }
    }

    var fixedToday: CalendarDate? { today.flatMap(CalendarDate.init(iso:)) }
}
