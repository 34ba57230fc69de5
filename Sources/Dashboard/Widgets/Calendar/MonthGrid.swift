import CalendarTime
import CanvasCore

/// Where each day of a month sits in a week-by-week grid: pure geometry the calendar draws and
/// hit-tests with.
struct MonthGrid: Equatable {
    let month: CalendarDate
    let weekStart: Weekday

    enum Weekday: String, CaseIterable {
        case monday, sunday
    }

    static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    /// Weekday column headers in display order.
    var headers: [String] {
        weekStart == .monday ? Self.dayNames : ["Su"] + Self.dayNames.dropLast()
    }

    /// The column (0–6) of the first day of the month.
    var leadingBlanks: Int {
        let isoWeekday = month.firstOfMonth.weekday
        return weekStart == .monday ? isoWeekday - 1 : isoWeekday % 7
    }

    /// The number of week rows the month spans (4–6).
    var weekCount: Int { (leadingBlanks + month.daysInMonth + 6) / 7 }

    /// Row and column of a day of this month.
    func position(ofDay day: Int) -> (row: Int, column: Int) {
        let index = leadingBlanks + day - 1
        return (index / 7, index % 7)
    }

    /// The day at a row and column, if that cell holds one.
    func day(atRow row: Int, column: Int) -> Int? {
        guard (0..<7).contains(column) else { return nil }
        let day = row * 7 + column - leadingBlanks + 1
        return (1...month.daysInMonth).contains(day) ? day : nil
    }
}
