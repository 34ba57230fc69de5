import CalendarTime
import ServerAPI
import Testing

/// The one patch rule of todos and events, which the server stores by and a dashboard's cache
/// shows a change by before the server answers: both show the same.
struct PatchRuleTests {
    @Test func onlyThePatchsFieldsChangeAndNullClearsADueDay() {
        let item = TodoItem(id: 1, title: "Call", notes: "n", done: false, due: CalendarDate(iso: "2026-12-01"))
        #expect(item.patched(TodoPatch(done: true)) == TodoItem(id: 1, title: "Call", notes: "n", done: true, due: item.due))
        #expect(item.patched(TodoPatch(due: .some(nil))).due == nil)
        #expect(item.patched(TodoPatch(due: "2026-12-24")).due == CalendarDate(iso: "2026-12-24"))
    }

    @Test func makingAnEventAllDayCoversItsDays() throws {
        let event = CalendarEvent(id: 1, title: "Review", start: try #require(UTCInstant(iso: "2026-11-22T09:30:00Z")),
                                  end: try #require(UTCInstant(iso: "2026-11-23T10:00:00Z")), allDay: false)
        let whole = event.patched(CalendarEventPatch(allDay: true))
        #expect(whole.start == UTCInstant(iso: "2026-11-22T00:00:00Z"))
        #expect(whole.end == UTCInstant(iso: "2026-11-24T00:00:00Z"))
        #expect(event.patched(CalendarEventPatch(title: "Retro")).start == event.start)
    }
}
