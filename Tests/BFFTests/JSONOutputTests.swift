@testable import BFF
import Foundation
import ServerAPI
@testable import ServerHTTP
import Testing

/// The direct JSON writers say exactly what `JSONEncoder` would, read back by `JSONDecoder`.
struct JSONOutputTests {
    static let hostile = "quote \" backslash \\ slash / nl \n cr \r tab \t bell \u{07} esc \u{1B}[31m del \u{7F} "
        + "nul-free \u{1F} unicode é 👩‍💻 \u{2028} \u{FEFF}"

    private func written(_ value: some JSONWritable) -> Data {
        var output = JSONOutput()
        value.write(to: &output)
        return Data(output.bytes)
    }

    @Test func pagesOfEveryHotTypeRoundTrip() throws {
        let todos = Page(items: [TodoItem(id: 1, title: Self.hostile, notes: "", done: true, due: "2026-11-22"),
                                 TodoItem(id: Int64.max, title: "x", notes: Self.hostile)], next: "7")
        #expect(try JSONDecoder().decode(Page<TodoItem>.self, from: written(todos)) == todos)
        var repeating = CalendarEvent(id: 4, title: "stand-up", start: "2026-11-23T08:00:00Z", end: "2026-11-23T08:15:00Z")
        repeating.uid = Self.hostile
        repeating.recurrence = "FREQ=WEEKLY;BYDAY=MO"
        repeating.timeZone = "Europe/Paris"
        repeating.location = Self.hostile
        repeating.description = Self.hostile
        repeating.instanceStart = "2026-11-23T08:00:00Z"
        let events = Page(items: [CalendarEvent(id: 3, title: Self.hostile, start: "2026-11-22T00:00:00Z",
                                                end: "2026-11-23T00:00:00Z", allDay: true), repeating], next: nil)
        #expect(try JSONDecoder().decode(Page<CalendarEvent>.self, from: written(events)) == events)
        let message = ChatMessage(id: 9, channel: "general", author: "ann", text: Self.hostile, sentAt: "2026-11-22T09:30:00.123Z")
        #expect(try JSONDecoder().decode(ChatMessage.self, from: written(message)) == message)
        #expect(try JSONDecoder().decode(Page<ChatMessage>.self, from: written(Page<ChatMessage>(items: []))).items.isEmpty)
    }

    @Test func nullsAreWrittenAndControlCharactersEscaped() throws {
        let text = String(decoding: written(Page(items: [TodoItem(id: 1, title: "a\u{1}b\"")], next: nil)), as: UTF8.self)
        #expect(text == #"{"items":[{"id":1,"title":"a\u0001b\"","notes":"","done":false,"due":null}],"next":null}"#)
    }
}
