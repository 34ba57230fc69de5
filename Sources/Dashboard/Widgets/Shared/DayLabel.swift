import CalendarTime
import CanvasCore

/// Short day labels for lists and titles: `Mon 23 Nov`.
enum DayLabel {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func short(_ date: CalendarDate) -> String {
        "\(weekdays[date.weekday - 1]) \(date.day) \(months[date.month - 1])"
    }
}
