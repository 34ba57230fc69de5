import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI
import ServerAPI

/// How the calendar pane shows its days: the month with the selected day's agenda under it, the
/// days from the selected one on (an agenda, as khal's and calcurse's lists), or the selected
/// day's week side by side.
enum CalendarView: String, CaseIterable {
    case month, agenda, week

    var next: CalendarView {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }

    /// How many days the agenda looks ahead for days with something planned.
    static let agendaDays = 31

    /// The days it shows around `selected`: their months' events are asked for.
    func shownDays(around selected: CalendarDate, weekStart: MonthGrid.Weekday) -> ClosedRange<CalendarDate> {
        switch self {
        case .month: return selected...selected
        case .agenda: return selected...selected.adding(days: Self.agendaDays - 1)
        case .week:
            let first = Self.weekStart(of: selected, weekStart: weekStart)
            return first...first.adding(days: 6)
        }
    }

    /// The first day of `day`'s week.
    static func weekStart(of day: CalendarDate, weekStart: MonthGrid.Weekday) -> CalendarDate {
        day.adding(days: -(weekStart == .monday ? day.weekday - 1 : day.weekday % 7))
    }
}

/// The lines of a list of days (the agenda view, and a week too narrow for columns): each day's
/// heading, then its events and due todos; days with nothing planned are left out unless
/// `keepingEmpty`, but for the selected day.
struct DayListDrawing {
    let agenda: CalendarAgenda
    let clock: CanvasClock
    let selected: CalendarDate
    let today: CalendarDate?
    let focused: Bool
    /// The selected day's event the event keys act on, marked while the pane has the focus.
    var chosen: CalendarEvent.Key? = nil

    func draw(from first: CalendarDate, days: Int, keepingEmpty: Bool, in area: Rect, into buffer: inout Buffer, theme: Theme) {
        var row = area.minY
        for offset in 0..<days where row < area.maxY {
            let day = first.adding(days: offset)
            let lines = agenda.lines(for: day, clock: clock)
            guard !lines.isEmpty || keepingEmpty || day == selected else { continue }
            buffer.write(DayLabel.short(day) + (day == today ? " · today" : ""), at: Point(x: area.minX, y: row),
                         style: headingStyle(of: day, theme: theme), clip: area)
            row += 1
            if lines.isEmpty, day == selected, row < area.maxY {
                buffer.write("  Nothing planned. n adds an event.", at: Point(x: area.minX, y: row), style: theme[.muted], clip: area)
                row += 1
            }
            for line in lines where row < area.maxY {
                let x = buffer.write("  " + line.label + " ", at: Point(x: area.minX, y: row), style: style(of: line, on: day, theme, label: true),
                                     clip: area)
                buffer.write(DisplayWidth.clipped(line.title, to: area.maxX - x), at: Point(x: x, y: row),
                             style: style(of: line, on: day, theme, label: false), clip: area)
                row += 1
            }
        }
    }

    func headingStyle(of day: CalendarDate, theme: Theme) -> Style {
        if day == selected { return theme[focused ? .selection : .selectionUnfocused] }
        return day == today ? theme[.today] : theme[.heading]
    }

    /// An agenda line's label or title: the selection's on the chosen event of a focused pane;
    /// a warning once its reminder went off; the label in its calendar's colour.
    func style(of line: CalendarAgenda.Line, on day: CalendarDate, _ theme: Theme, label: Bool) -> Style {
        if focused, day == selected, let chosen, line.event == chosen { return theme[.selection] }
        if line.reminded { return theme[.warning] }
        return label ? theme.style(.accent, in: line.colour) : theme[.text]
    }
}

/// The week view: seven columns, each day's heading and its events by start (`09:00 Title`).
struct WeekDrawing {
    let days: DayListDrawing
    let weekStart: MonthGrid.Weekday

    /// Columns narrower than this show too little: the week is a list of days instead.
    static let narrowestColumn = 9

    func draw(in area: Rect, into buffer: inout Buffer, theme: Theme) {
        let first = CalendarView.weekStart(of: days.selected, weekStart: weekStart)
        let width = area.width / 7
        guard width >= Self.narrowestColumn else {
            days.draw(from: first, days: 7, keepingEmpty: true, in: area, into: &buffer, theme: theme)
            return
        }
        for column in 0..<7 {
            let day = first.adding(days: column)
            let cell = Rect(x: area.minX + column * width, y: area.minY, width: width - 1, height: area.height)
            buffer.write(DayLabel.weekdays[day.weekday - 1] + " \(day.day)", at: cell.origin, style: days.headingStyle(of: day, theme: theme),
                         clip: cell)
            for (row, line) in days.agenda.lines(for: day, clock: days.clock).enumerated() where row + 1 < cell.height {
                let start = line.label.split(separator: "–").first.map(String.init) ?? line.label
                let point = Point(x: cell.minX, y: cell.minY + 1 + row)
                let x = buffer.write(start + " ", at: point, style: days.style(of: line, on: day, theme, label: true), clip: cell)
                buffer.write(DisplayWidth.clipped(line.title, to: cell.maxX - x), at: Point(x: x, y: point.y),
                             style: days.style(of: line, on: day, theme, label: false), clip: cell)
            }
        }
    }
}
