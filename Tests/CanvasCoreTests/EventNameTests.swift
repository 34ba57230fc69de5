import CanvasCore
import Testing

@Suite("Event names and patterns")
struct EventNameTests {
    @Test(arguments: ["calendar.date.selected", "a.b.c", "a-1.b_2.c3", "canvas.listener.failed", "0.0.0"])
    func wellFormedNames(text: String) throws {
        let name = try #require(EventName(rawValue: text))
        #expect(name.rawValue == text)
        #expect(name.description == text)
    }

    @Test(arguments: [
        "", "calendar", "calendar.date", "a.b.c.d", "a..c", ".b.c", "a.b.", "...",
        "Calendar.date.selected", "calendar.date.selected ", " calendar.date.selected", "calendar.date.sel ected",
        "calendar.date.*", "calendar.dáte.selected", "calendar/date/selected", "a.b.c!",
    ])
    func malformedNames(text: String) {
        #expect(EventName(rawValue: text) == nil)
    }

    @Test func sourceIsTheFirstSegment() {
        #expect(EventName("calendar.date.selected").source == "calendar")
        #expect(ListenerFailed.name.source == "canvas")
    }

    @Test func parsingPatterns() {
        #expect(EventPattern("*") == .all)
        #expect(EventPattern("calendar.*") == .prefix("calendar."))
        #expect(EventPattern("calendar.date.*") == .prefix("calendar.date."))
        #expect(EventPattern("calendar.date.selected") == .exact("calendar.date.selected"))
    }

    @Test(arguments: ["*", "calendar.*", "calendar.date.*", "calendar.date.selected"])
    func patternsPrintAsParsed(text: String) throws {
        #expect(try #require(EventPattern(text)).description == text)
    }

    @Test(arguments: [
        "bad", "", "calendar", "calendar.date", ".*", "..*", "calendar..*", "calendar.date.selected.*",
        "a.b.c.*", "calendar.*.selected", "**", "*.", "calendar*", "calendar.", "Calendar.Date.Selected",
        "*.*", "*.date.*", "Calendar.*", "cal endar.*", "calendar.dáte.*",
    ])
    func malformedPatternsAreNil(text: String) {
        #expect(EventPattern(text) == nil)
    }

    @Test func matching() {
        let selected: EventName = "calendar.date.selected"
        let shown: EventName = "calendar.month.shown"
        let lookAlike: EventName = "calendarx.date.selected"
        #expect(EventPattern.exact(selected).matches(selected))
        #expect(!EventPattern.exact(selected).matches(shown))
        #expect(EventPattern.prefix("calendar.").matches(shown))
        #expect(!EventPattern.prefix("calendar.").matches(lookAlike))
        #expect(EventPattern.prefix("calendar.date.").matches(selected))
        #expect(!EventPattern.prefix("calendar.date.").matches(shown))
        #expect(EventPattern.all.matches(lookAlike))
    }
}
