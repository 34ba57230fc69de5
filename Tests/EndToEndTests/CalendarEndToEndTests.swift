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
