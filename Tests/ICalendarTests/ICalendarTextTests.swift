import CalendarTime
import ICalendar
import Testing

@Suite("iCalendar's text")
struct ICalendarTextTests {
    static let sample = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp.//CalDAV Client//EN\r
        BEGIN:VEVENT\r
        UID:20261130T090000-1@example.com\r
        DTSTART;TZID=Europe/Paris:20261130T090000\r
        DURATION:PT1H30M\r
        SUMMARY:Stand-up\\, then coffee\\; a long summary that goes on past seventy-five octets, fol\r
         ded by its writer\r
        ATTENDEE;CN="Doe, Jane";ROLE=REQ-PARTICIPANT:mailto:jane@example.com\r
        X-WR-SOMETHING;X-PARAM=a,b:kept as it came\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;RELATED=START:-PT15M\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func readsComponentsPropertiesAndParametersAsWritten() throws {
        let calendars = try ICalendarText.read(Self.sample)
        let calendar = try #require(calendars.first)
        #expect(calendars.count == 1 && calendar.name == "VCALENDAR" && calendar["version"]?.value == "2.0")
        let event = try #require(calendar.components(named: "VEVENT").first)
        #expect(event.line == 4)
        #expect(event["DTSTART"]?.parameter("tzid") == "Europe/Paris")
        #expect(try ICalDateTime(#require(event["DTSTART"])) == .zoned(LocalDateTime(date: "2026-11-30", hour: 9, minute: 0)!, zone: "Europe/Paris"))
        #expect(ICalText.unescape(event["SUMMARY"]!.value)
            == "Stand-up, then coffee; a long summary that goes on past seventy-five octets, folded by its writer")
        #expect(event["ATTENDEE"]?.parameters == [ICalParameter(name: "CN", values: ["Doe, Jane"]), ICalParameter(name: "ROLE", values: ["REQ-PARTICIPANT"])])
        #expect(event["ATTENDEE"]?.value == "mailto:jane@example.com")
        #expect(event["X-WR-SOMETHING"]?.parameters == [ICalParameter(name: "X-PARAM", values: ["a", "b"])])
        #expect(event.components(named: "VALARM").first?["TRIGGER"]?.value == "-PT15M")
        #expect(ICalDuration(event["DURATION"]!.value) == ICalDuration(seconds: 5400))
    }

    @Test func aRoundTripKeepsEverythingAndFoldsAtSeventyFiveOctetsBetweenCharacters() throws {
        let calendars = try ICalendarText.read(Self.sample)
        let written = ICalendarText.write(calendars)
        #expect(try ICalendarText.read(written).map(Self.withoutLines) == calendars.map(Self.withoutLines))
        let lines = written.utf8.split(separator: UInt8(ascii: "\n")).map { Array($0) }
        #expect(lines.allSatisfy { $0.count <= 76 && $0.last == UInt8(ascii: "\r") })  // 75 octets and the CR
        // A long text of two-, three- and four-byte characters folds between them, never inside one.
        let text = String(repeating: "é漢🙂", count: 40)
        var event = ICalComponent(name: "VEVENT")
        event.properties.append(ICalProperty(name: "SUMMARY", value: ICalText.escape(text)))
        let folded = ICalendarText.write([event])
        #expect(folded.utf8.split(separator: UInt8(ascii: "\n")).allSatisfy { $0.count <= 76 })
        #expect(try ICalText.unescape(#require(ICalendarText.read(folded).first?["SUMMARY"]).value) == text)
    }

    @Test func linesEndingInLFAloneBlankLinesAndTabFoldsAreRead() throws {
        let text = "BEGIN:VCALENDAR\n\nBEGIN:VTODO\nSUMMARY:a\n\tb\nEND:VTODO\nEND:VCALENDAR"
        let todo = try #require(try ICalendarText.read(text).first?.components(named: "VTODO").first)
        #expect(todo["SUMMARY"]?.value == "ab")
        #expect(todo.line == 3)
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "line 3: END:VTODO closes BEGIN:VEVENT of line 2"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\n", "line 2: BEGIN:VEVENT is never closed (END:VEVENT)"),
        ("SUMMARY:x\r\n", "line 1: SUMMARY is outside any component (BEGIN:VCALENDAR first)"),
        ("BEGIN:VCALENDAR\r\nSUMMARY x\r\nEND:VCALENDAR\r\n", "line 2: SUMMARY x: a property's name is letters, digits and '-'"),
        ("BEGIN:VCALENDAR\r\nDTSTART;TZID:x\r\nEND:VCALENDAR\r\n", "line 2: DTSTART: a parameter is NAME=value (TZID)"),
        ("BEGIN:VCALENDAR\r\nATTENDEE;CN=\"Doe:mailto:a\r\nEND:VCALENDAR\r\n", "line 2: ATTENDEE;CN: a quoted value is never closed"),
        ("BEGIN:VCALENDAR\r\nSUMMARY;X=a\"b\":x\r\nEND:VCALENDAR\r\n", "line 2: SUMMARY;X: a value with a quote in it must be quoted whole"),
        ("BEGIN:VCALENDAR\r\nUID\r\nEND:VCALENDAR\r\n", "line 2: UID: a ':' comes before the value"),
        ("END:VCALENDAR\r\n", "line 1: END:VCALENDAR closes nothing"),
        ("BEGIN:\r\n", "line 1: BEGIN: names no component"),
        (String(repeating: "BEGIN:X\r\n", count: 17), "line 17: components are nested more than 16 deep"),
    ])
    func aMistakeIsNamedByItsLine(_ text: String, _ message: String) {
        #expect(throws: ICalError(line: Int(message.split(separator: ":")[0].dropFirst(5))!, String(message.split(separator: ":", maxSplits: 1)[1].dropFirst()))) {
            try ICalendarText.read(text)
        }
    }

    @Test func textValuesAndListsEscapeTheirSeparators() {
        #expect(ICalText.escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        #expect(ICalText.unescape("a\\,b\\;c\\\\d\\ne\\Nf") == "a,b;c\\d\ne\nf")
        #expect(ICalText.list("work,travel\\, abroad,\\\\x") == ["work", "travel, abroad", "\\x"])
    }

    @Test func datesTimesAndDurations() {
        #expect(ICalDateTime(value: "20261130") == .date("2026-11-30"))
        #expect(ICalDateTime(value: "20261130T090000Z") == .utc(LocalDateTime(date: "2026-11-30", hour: 9, minute: 0)!))
        #expect(ICalDateTime(value: "20261130T090000") == .floating(LocalDateTime(date: "2026-11-30", hour: 9, minute: 0)!))
        #expect(ICalDateTime(value: "20261130T250000") == nil)
        #expect(ICalDateTime(value: "20260230") == nil)
        #expect(ICalDateTime(value: "20261130T090000", isDate: true) == nil)
        #expect(ICalDateTime.date("2026-11-30").property("DTSTART").parameter("VALUE") == "DATE")
        #expect(ICalDuration("-PT15M") == ICalDuration(seconds: 900, isNegative: true))
        #expect(ICalDuration("P1W") == ICalDuration(days: 7))
        #expect(ICalDuration("P1DT12H") == ICalDuration(days: 1, seconds: 43_200))
        #expect(ICalDuration("P1DT12H")?.text == "P1DT12H")
        #expect(ICalDuration("P2W")?.text == "P2W")
        for bad in ["", "P", "PT", "1D", "P1H", "PT1D", "P99999999D", "P1DT", "PTT1H"] { #expect(ICalDuration(bad) == nil, "\(bad)") }
        // A day is a calendar day: 09:00 the day before stays 09:00.
        #expect(ICalDuration("-P1D")!.added(to: LocalDateTime(date: "2026-03-29", hour: 9, minute: 0)!) == LocalDateTime(date: "2026-03-28", hour: 9, minute: 0)!)
    }

    static func withoutLines(_ component: ICalComponent) -> ICalComponent {
        var copy = component
        copy.line = 0
        copy.properties = copy.properties.map { var property = $0; property.line = 0; return property }
        copy.components = copy.components.map(withoutLines)
        return copy
    }
}
