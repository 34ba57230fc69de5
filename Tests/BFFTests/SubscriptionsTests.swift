import BFF
import CalendarTime
import Foundation
import HummingbirdTesting
import ServerAPI
import Synchronization
import TestSupport
import Testing

/// Calendar subscriptions against a real web server (nginx, as publishers serve `.ics` files), on
/// both engines: the file's events shown read-only in the subscriber's calendar alone, read again
/// with `If-None-Match`/`If-Modified-Since` (304), replaced when the file changed, removed with
/// the subscription; wrong addresses and files said in our words, naming `url`.
@Suite("BFF calendar subscriptions")
struct SubscriptionsTests {
    static func feed(_ events: String, name: String = "Team holidays") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nX-WR-CALNAME:\(name)\r\nREFRESH-INTERVAL;VALUE=DURATION:PT2H\r\n"
            + events + "END:VCALENDAR\r\n"
    }

    static func event(_ uid: String, _ title: String, _ start: String, rule: String? = nil) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:\(title)\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\n"
            + (rule.map { "RRULE:\($0)\r\n" } ?? "") + "END:VEVENT\r\n"
    }

    static let first = feed(event("retro", "Retro", "20261124T150000Z", rule: "FREQ=WEEKLY;COUNT=3") + event("party", "Party", "20261127T180000Z"))
    static let second = feed(event("retro", "Retrospective", "20261124T150000Z", rule: "FREQ=WEEKLY;COUNT=3")
                             + event("launch", "Launch", "20261126T090000Z"))

    @Test("a subscription's events are listed read-only with its colour, for its subscriber alone; read again, 304 keeps them, a change replaces them; removed with it")
    func subscribeReadAgainRemove() async throws {
        let web = try await StaticWebServer()
        try web.serve(Self.first, as: "team.ics", age: 60)
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let made = try await client.send(.post, APIPath.calendarSubscriptions, token: ann,
                                             json: NewCalendarSubscription(url: web.url("team.ics"), colour: "#3366cc"))
            #expect(made.status == .created)
            let calendar = try made.decode(CalendarCollection.self)
            #expect(calendar.name == "Team holidays" && calendar.kind == "subscription" && calendar.readOnly && calendar.events == 2)
            #expect(calendar.url == web.url("team.ics") && calendar.problem == nil && calendar.colour == "#3366cc")

            let events = try await client.instances(from: "2026-11-23", to: "2026-12-31", token: ann)
            #expect(events.map(\.title) == ["Retro", "Party", "Retro", "Retro"])
            #expect(events.allSatisfy { $0.calendar == calendar.id && $0.colour == "#3366cc" && $0.readOnly == true })
            let party = try #require(events.first { $0.title == "Party" })
            let change = try await client.send(.patch, APIPath.calendarEvent(party.id), token: ann, json: CalendarEventPatch(title: "Mine"))
            #expect(change.status == .conflict && change.apiError?.error.contains("read-only") == true)
            #expect(try await client.send(.delete, APIPath.calendarEvent(party.id), token: ann).status == .conflict)

            // bob sees neither the calendar nor its events, and cannot remove it.
            let bob = try await client.token(for: "bob")
            #expect(try await client.send(.get, APIPath.calendars, token: bob).decode(Page<CalendarCollection>.self).items.isEmpty)
            #expect(try await client.instances(from: "2026-11-23", to: "2026-12-31", token: bob).isEmpty)
            #expect(try await client.send(.delete, APIPath.calendar(calendar.id), token: bob).status == .notFound)

            // Unchanged: nginx answers 304 and nothing moves.
            let again = try await client.send(.post, APIPath.calendarRefresh(calendar.id), token: ann)
            #expect(again.status == .ok && web.statuses.last == 304)
            #expect(try await client.instances(from: "2026-11-23", to: "2026-12-31", token: ann).map(\.id) == events.map(\.id))

            // Changed: a renamed event keeps its id, a new one comes, a gone one goes.
            try web.serve(Self.second, as: "team.ics")
            let read = try await client.send(.post, APIPath.calendarRefresh(calendar.id), token: ann).decode(CalendarCollection.self)
            #expect(web.statuses.last == 200 && read.events == 2 && read.problem == nil)
            let now = try await client.instances(from: "2026-11-23", to: "2026-12-31", token: ann)
            #expect(now.map(\.title) == ["Retrospective", "Launch", "Retrospective", "Retrospective"])
            #expect(now[0].id == events[0].id)

            // Its own events stay apart: ann's event with a UID the subscription has too.
            _ = try await client.importCalendar(Self.feed(Self.event("launch", "My launch", "20261201T090000Z")), token: ann)
            #expect(try await client.instances(from: "2026-11-23", to: "2026-12-31", token: ann).count == 5)

            #expect(try await client.send(.delete, APIPath.calendar(calendar.id), token: ann).status == .noContent)
            #expect(try await client.instances(from: "2026-11-23", to: "2026-12-31", token: ann).map(\.title) == ["My launch"])
            #expect(try await client.send(.get, APIPath.calendars, token: ann).decode(Page<CalendarCollection>.self).items.isEmpty)
        }
    }

    @Test("a subscription due is read again by the server itself, at its start and when due")
    func readWhenDue() async throws {
        let web = try await StaticWebServer()
        try web.serve(Self.first, as: "team.ics", age: 60)
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let offset = Mutex<TimeInterval>(0)
        var configuration = harness.configuration()
        configuration.clock = { Date().addingTimeInterval(offset.withLock { $0 }) }
        try await harness.withServer(configuration: configuration) { client in
            let ann = try await client.token(for: "ann")
            let made = try await client.send(.post, APIPath.calendarSubscriptions, token: ann, json: NewCalendarSubscription(url: web.url("team.ics")))
            // The file asks for two hours.
            let calendar = try made.decode(CalendarCollection.self)
            let refreshed = try #require(calendar.refreshedAt.flatMap(UTCInstant.init(iso:)))
            #expect(calendar.nextRefreshAt.flatMap(UTCInstant.init(iso:)) == refreshed.adding(seconds: 7_200))
        }
        try web.serve(Self.second, as: "team.ics")
        offset.withLock { $0 = 3 * 3_600 }
        try await harness.withServer(configuration: configuration) { client in
            let ann = try await client.token(for: "ann")
            try await eventually("the subscription read again", within: .seconds(10)) {
                try await client.instances(from: "2026-11-23", to: "2026-12-31", token: ann).map(\.title).contains("Launch")
            }
        }
    }

    @Test("a server that never answers: the reading gives up after 20 s, saying so; a third reading at once is 429, not a third call out")
    func silentServer() async throws {
        // A socket that listens and never accepts: the kernel completes connections, nobody answers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0
                && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        let silent = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/cal.ics"
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let clock = ContinuousClock()
            let started = clock.now
            // Two at once over connections of their own (the test client has one).
            let port = try #require(client.port)
            let subscribe = ["curl", "-s", "-w", "\\n%{http_code}", "-H", "Authorization: Bearer \(ann)", "-H", "Content-Type: application/json",
                             "-d", #"{"url": "\#(silent)"}"#, "http://127.0.0.1:\(port)\(APIPath.calendarSubscriptions)"]
            async let first = Command.run(subscribe)
            async let second = Command.run(subscribe)
            try await Task.sleep(for: .seconds(3))
            let third = try await client.send(.post, APIPath.calendarSubscriptions, token: ann, json: NewCalendarSubscription(url: silent))
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] == "5")
            for answer in [try await first, try await second] {
                #expect(answer.output.hasSuffix("\n422") && answer.output.contains("did not answer within 20 s"), "\(answer.output)")
            }
            #expect(clock.now - started < .seconds(30))
        }
    }

    @Test("wrong addresses and files are refused in our words, naming url; what only the server can reach is not read (the entries' network policy)")
    func refusals() async throws {
        let web = try await StaticWebServer()
        try web.serve(Self.first, as: "team.ics")
        try web.serve("<html><body>Not a calendar</body></html>", as: "page.html")
        try web.serve("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nEND:VCALENDAR\r\n", as: "broken.ics")
        try web.serve("BEGIN:VCALENDAR\r\n" + String(repeating: "X-FILL:" + String(repeating: "a", count: 1_000) + "\r\n", count: 9_000)
                      + "END:VCALENDAR\r\n", as: "huge.ics")
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            func refusal(_ url: String) async throws -> String {
                let answer = try await client.send(.post, APIPath.calendarSubscriptions, token: ann, json: NewCalendarSubscription(url: url))
                #expect(answer.status == .unprocessableContent && answer.apiError?.field == "url", "\(url): \(answer.status)")
                return answer.apiError?.error ?? ""
            }
            #expect(try await refusal("ftp://example.org/cal.ics").contains("https:// or webcal://"))
            #expect(try await refusal("https://ann:secret@example.org/cal.ics").contains("user name or password"))
            #expect(try await refusal("not a url at all").contains("is not a URL"))
            #expect(try await refusal(web.url("nothing.ics")).contains("has no calendar at this address (404)"))
            #expect(try await refusal(web.url("private/cal.ics")).contains("asks for a sign-in"))
            #expect(try await refusal(web.url("page.html")).contains("did not give an iCalendar file (it is text/html)"))
            #expect(try await refusal(web.url("broken.ics")).contains("is not iCalendar: line"))
            #expect(try await refusal(web.url("huge.ics")).contains("answered more than 8 MiB"))
            #expect(try await refusal("http://169.254.169.254/latest/meta-data").contains("never allowed"))
            #expect(try await refusal("http://[::ffff:169.254.169.254]/x.ics").contains("never allowed"))
            // A redirect is followed, within the same rules.
            let moved = try await client.send(.post, APIPath.calendarSubscriptions, token: ann, json: NewCalendarSubscription(url: web.url("moved/team.ics")))
            #expect(moved.status == .created)
            let bad = try await client.send(.post, APIPath.calendarSubscriptions, token: ann,
                                            json: NewCalendarSubscription(url: web.url("team.ics"), name: "a\nb", colour: "blue"))
            #expect(bad.status == .badRequest && bad.apiError?.field == "name")
            #expect(try await client.send(.get, APIPath.calendars, token: ann).decode(Page<CalendarCollection>.self).items.count == 1)
        }
    }
}
