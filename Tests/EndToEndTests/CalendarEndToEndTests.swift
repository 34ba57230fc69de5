import CanvasCore
import Foundation
import TestSupport
import Testing

/// Issue 54: the calendar holds the user's real calendar. An .ics file as a calendar program
/// exports it is imported with `termcanvas calendar import` (its mistakes named by line); the
/// dashboard draws each instance of its weekly event, the one changed on its own where it moved,
/// the one taken out nowhere, its task in the todo list; another device moves "this one" and the
/// dashboard follows; `calendar export` writes it back, what the dashboard does not show included,
/// readable by its owner alone.
@Suite("The calendar end to end", .serialized)
struct CalendarEndToEndTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example Corp//Calendar 4.2//EN\r
        BEGIN:VEVENT\r
        UID:swim-2026@example.org\r
        DTSTAMP:20261020T120000Z\r
        DTSTART:20261101T090000Z\r
        DTEND:20261101T100000Z\r
        RRULE:FREQ=WEEKLY;BYDAY=SU\r
        EXDATE:20261129T090000Z\r
        SUMMARY:Swim\r
        LOCATION:Pool\\, lane 3\r
        X-EXAMPLE-COLOUR:teal\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:swim-2026@example.org\r
        DTSTAMP:20261020T120000Z\r
        RECURRENCE-ID:20261122T090000Z\r
        DTSTART:20261122T110000Z\r
        DTEND:20261122T120000Z\r
        SUMMARY:Swim (late)\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:passport@example.org\r
        DTSTAMP:20261020T120000Z\r
        SUMMARY:Renew passport\r
        DUE;VALUE=DATE:20261122\r
        PRIORITY:1\r
        X-EXAMPLE-LIST:errands\r
        END:VTODO\r
        BEGIN:VEVENT\r
        SUMMARY:No identity\r
        DTSTART:20261122T150000Z\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// An event starting `lead` seconds after its reminder, which goes off `after` seconds from now.
    static func remindedEvent(_ uid: String, title: String, after: Int, lead: Int) -> String {
        let alarm = Int(Date().timeIntervalSince1970) + after
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\n"
            + "SUMMARY:\(title)\r\nDTSTART:\(stamp(alarm + lead))\r\nDURATION:PT30M\r\nLOCATION:Room 4\r\n"
            + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT\(lead)S\r\nDESCRIPTION:\(title)\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// `YYYYMMDDTHHMMSSZ` of a moment.
    static func stamp(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var fields = tm()
        gmtime_r(&time, &fields)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", fields.tm_year + 1900, fields.tm_mon + 1, fields.tm_mday,
                      fields.tm_hour, fields.tm_min, fields.tm_sec)
    }

    @Test("a reminder shows at its time on the message line, with the terminal's bell, with no calendar on the canvas; one that went off while the dashboard was closed is said once at its next start")
    func reminderAtItsTime() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        var environment = home.environment
        environment["TZ"] = "UTC"
        let file = home.url.appendingPathComponent("alpha.ics")
        try Self.remindedEvent("alpha", title: "Alpha", after: 8, lead: 300).write(to: file, atomically: true, encoding: .utf8)
        let imported = try await MarketplaceEndToEndTests.termcanvas(["calendar", "import", file.path], environment)
        #expect(imported.status == 0, "\(imported.output)")
        // No calendar on the canvas.
        let quiet = home.url.appendingPathComponent("quiet.yaml")
        try "name: quiet\nfocused: 1\npanes:\n  - { id: 1, app: eventlog, x: 0, y: 0, width: 12, height: 12 }\n"
            .write(to: quiet, atomically: true, encoding: .utf8)

        let dashboard = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22", "--layout", quiet.path],
                                              size: Size(width: 100, height: 30), environment: environment)
        try await dashboard.waitFor("Event Log")
        #expect(try await dashboard.format("#{window_bell_flag}") == "0")
        try await dashboard.waitFor("Reminder: Alpha in 5 min", timeout: .seconds(30))
        #expect(try await dashboard.format("#{window_bell_flag}") == "1")
        try await dashboard.send("C-q")
        #expect(try await dashboard.waitForExit().status == 0)

        // Beta's goes off while no dashboard is open: said at the next start, once.
        try Self.remindedEvent("beta", title: "Beta", after: 1, lead: 600).write(to: file, atomically: true, encoding: .utf8)
        #expect(try await MarketplaceEndToEndTests.termcanvas(["calendar", "import", file.path], environment).status == 0)
        let missedAt = Date().addingTimeInterval(1)
        try await eventually("Beta's reminder to pass", within: .seconds(5)) { Date() > missedAt.addingTimeInterval(1) }
        let again = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                          environment: environment)
        let screen = try await again.waitFor("Missed while closed: Beta", timeout: .seconds(20))
        #expect(!screen.joined().contains("Reminder: Alpha"))
        try await again.send("C-q")
        #expect(try await again.waitForExit().status == 0)
    }

    @Test("an imported weekly event repeats in the dashboard; this one moves on another device; the export keeps everything")
    func importShowExport() async throws {
        let server = try await TeamServer.start(users: ["alice"])
        defer { server.stop() }
        var environment = try await server.logIn("alice", canvasLayout: true)
        environment["TZ"] = "UTC"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-calendar-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("personal.ics")
        try Self.calendar.write(to: file, atomically: true, encoding: .utf8)

        let imported = try await MarketplaceEndToEndTests.termcanvas(["calendar", "import", file.path, "--bff", server.url], environment)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("Imported 1 event from \(file.path): 1 new, 0 replaced."), "\(imported.output)")
        #expect(imported.output.contains("Imported 1 task to the todo list: 1 new, 0 replaced."), "\(imported.output)")
        #expect(imported.output.contains("line 31: BEGIN:VEVENT has no UID"), "\(imported.output)")
        let missing = try await MarketplaceEndToEndTests.termcanvas(["calendar", "import", folder.path + "/nosuch.ics", "--bff", server.url], environment)
        #expect(missing.status != 0 && missing.output.contains("there is no file") && !missing.output.contains("USAGE"), "\(missing.output)")

        // The 22nd (the dashboard's day): the instance moved on its own; the 15th: as the rule says; the 29th: taken out.
        let dashboard = try await server.dashboard(environment)
        try await dashboard.waitFor("11:00–12:00 Swim (late)")
        try await dashboard.waitFor("[ ] Renew passport")
        for _ in 0..<7 { try await dashboard.send("Left") }
        try await dashboard.waitFor("09:00–10:00 Swim")
        for _ in 0..<14 { try await dashboard.send("Right") }
        try await dashboard.waitFor("Nothing planned")

        // Another device moves this one, the 15th, an hour later.
        let token = try await server.token("alice")
        let list = try await Command.run(["curl", "-sf", server.url + "/api/calendar/events?from=2026-11-15&to=2026-11-15", "-H", "Authorization: Bearer \(token)"])
        let items = try #require((try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
        let id = try #require(items.first?["id"] as? Int)
        let moved = try await Command.run(["curl", "-sf", "-X", "PATCH", server.url + "/api/calendar/events/\(id)?scope=this&instance=2026-11-15T09:00:00Z",
                                           "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                                           "-d", #"{"start":"2026-11-15T10:00:00Z","end":"2026-11-15T11:00:00Z"}"#])
        #expect(moved.status == 0, "\(moved.output)")
        for _ in 0..<14 { try await dashboard.send("Left") }
        try await dashboard.waitFor("10:00–11:00 Swim")

        let output = folder.appendingPathComponent("out.ics")
        let exported = try await MarketplaceEndToEndTests.termcanvas(["calendar", "export", "--from", "2026-11-01", "--to", "2026-11-30",
                                                                      "-o", output.path, "--bff", server.url], environment)
        #expect(exported.status == 0 && exported.output.contains("Wrote 1 event and 1 task to"), "\(exported.output)")
        let text = try String(contentsOf: output, encoding: .utf8)
        for kept in ["X-EXAMPLE-COLOUR:teal", "LOCATION:Pool\\, lane 3", "EXDATE:20261129T090000Z", "RECURRENCE-ID:20261122T090000Z",
                     "RECURRENCE-ID:20261115T090000Z", "DTSTART:20261115T100000Z", "X-EXAMPLE-LIST:errands", "PRIORITY:1"] {
            #expect(text.contains(kept + "\r\n"), "\(kept)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
