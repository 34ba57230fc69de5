import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI

/// How a month is laid out in a pane of a given size: day cells 3 to 5 columns wide, centred.
struct CalendarLayout: Equatable {
    let size: Size
    let cellWidth: Int
    let left: Int
    /// Rows: 0 title, 1 weekday headers, 2… weeks.
    static let firstWeekRow = 2

    init(size: Size) {
        self.size = size
        cellWidth = max(3, min(5, size.width / 7))
        left = max(0, (size.width - cellWidth * 7) / 2)
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The day of `month` drawn at a point of the pane, if any.
    func day(at point: Point, month: CalendarDate, weekStart: MonthGrid.Weekday) -> CalendarDate? {
        let grid = MonthGrid(month: month, weekStart: weekStart)
        guard point.x >= left, point.y >= Self.firstWeekRow,
              let day = grid.day(atRow: point.y - Self.firstWeekRow, column: (point.x - left) / cellWidth)
        else { return nil }
        return CalendarDate(year: month.year, month: month.month, day: day)
    }

    /// Draws the month; days in `marked` (events, due todos) get a `•` before their number.
    /// - Returns: the first row below the month and its footer, free for an agenda.
    @discardableResult
    func draw(_ grid: MonthGrid, selected: CalendarDate, today: CalendarDate?, marked: Set<CalendarDate> = [],
              into buffer: inout Buffer, theme: Theme, focused: Bool) -> Int {
        let title = "\(Self.monthNames[selected.month - 1]) \(selected.year)"
        buffer.writeCentered(title, row: 0, in: buffer.bounds, style: theme[.heading])
        for (column, name) in grid.headers.enumerated() {
            let x = left + column * cellWidth + cellWidth - 3
            buffer.write(" " + name, at: Point(x: x, y: 1), style: theme[.muted])
        }
        for day in 1...selected.daysInMonth {
            let (row, column) = grid.position(ofDay: day)
            let date = CalendarDate(year: selected.year, month: selected.month, day: day)!
            var style = theme[.text]
            if date == today { style = theme[.today] }
            if date == selected {
                style = theme[focused ? .selection : .selectionUnfocused]
                if date == today { style = style.adding([.bold, .underline]) }
            }
            let label = day < 10 ? "  \(day)" : " \(day)"
            let x = left + column * cellWidth + cellWidth - 3
            buffer.write(label, at: Point(x: x, y: Self.firstWeekRow + row), style: style)
            if marked.contains(date) {
                buffer.write("•", at: Point(x: x + (day < 10 ? 1 : 0), y: Self.firstWeekRow + row),
                             style: date == selected ? style : theme[.accent])
            }
        }
        let footerRow = Self.firstWeekRow + grid.weekCount + 1
        if footerRow < size.height {
            let weekday = Self.weekdayNames[selected.weekday - 1]
            let text = "\(weekday), \(selected.day) \(Self.monthNames[selected.month - 1]) \(selected.year)"
            buffer.writeCentered(text, row: footerRow, in: buffer.bounds, style: theme[.accent])
        }
        return footerRow + 1
    }
}
