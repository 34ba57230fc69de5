import AppInstalls
import ArgumentParser
import CalendarItems
import CalendarTime
import CanvasUI
import CommandSupport
import FoundationEssentials
import Glibc
import HTTPClient
import ICalendar
import PrivateFiles
import ServerAPI
import SystemZones

/// `termcanvas calendar`: the user's calendar as iCalendar files, the format every calendar
/// program imports and exports.
struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Import and export your calendar and todo list as iCalendar (.ics) files; subscribe to published calendars; sync with CalDAV.",
        discussion: """
            An .ics file from Google Calendar, Outlook, Apple Calendar, Thunderbird or Nextcloud imports with its repeating \
            events, time zones, instances changed or taken out one by one and everything the dashboard does not show, kept \
            as it came; its tasks (VTODO) go to the todo list, with their priority. An event or task already there (by its \
            UID) is replaced, so importing a file again updates it.
            """,
        subcommands: [Import.self, Export.self, Subscribe.self, Connect.self, List.self, Change.self, Refresh.self, Remove.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import", abstract: "Import an iCalendar file's events; mistakes are named by line, the rest imported.")

        @Argument(help: ArgumentHelp("The iCalendar file (.ics); - reads standard input.", valueName: "FILE")) var file: String
        @OptionGroup var server: ServerOption

        func run() async throws {
            let text = try CalendarFile.read(file)
            let calendars: [ICalComponent]
            do {
                calendars = try ICalendarText.read(text).filter { $0.name == "VCALENDAR" }
            } catch {
                throw CommandError(TerminalText.safe("\(file) is not an iCalendar file: line \(error.line): \(error.message)"))
            }
            guard !calendars.isEmpty else { throw CommandError(TerminalText.safe("\(file) holds no calendar (BEGIN:VCALENDAR)")) }
            let read = CalendarImport(calendars, zones: SystemZones.zone)
            var problems = read.problems.map { "line \($0.line): \($0.message)" }
            let client = try await server.client()
            var added = 0, replaced = 0, tasksAdded = 0, tasksReplaced = 0
            let parts = read.events.map { (components: $0.calendar.components.filter { $0.name != "VTIMEZONE" }, timeZones: $0.timeZones, bytes: $0.text.utf8.count) }
                + read.tasks.map { (components: [$0.component], timeZones: $0.timeZones, bytes: $0.text.utf8.count) }
            for body in CalendarFile.requests(of: parts) {
                do {
                    var request = HTTPClient.Request(.post, APIPath.calendarImport, headers: [
                        (name: "Content-Type", value: "text/calendar; charset=utf-8"), (name: "Accept", value: "application/json"),
                        (name: "Idempotency-Key", value: UUID().uuidString),
                    ])
                    request.body = Array(body.utf8)
                    let result = try HTTPClient.decode(CalendarImportResult.self, from: try await client.send(request))
                    added += result.added
                    replaced += result.replaced
                    tasksAdded += result.tasksAdded ?? 0
                    tasksReplaced += result.tasksReplaced ?? 0
                    // Lines of the part sent, which the file's reading above would have named: rare.
                    problems += result.skipped.map { "the server: \($0.error)" }
                } catch {
                    if added + replaced + tasksAdded + tasksReplaced > 0 {
                        print("Imported \(added + replaced) events and \(tasksAdded + tasksReplaced) tasks before this:")
                    }
                    throw CommandError(explaining: error, doing: "import \(file)")
                }
            }
            print(TerminalText.safe("Imported \(added + replaced) event\(added + replaced == 1 ? "" : "s") from \(file): \(added) new, \(replaced) replaced."))
            if tasksAdded + tasksReplaced > 0 {
                print("Imported \(tasksAdded + tasksReplaced) task\(tasksAdded + tasksReplaced == 1 ? "" : "s") to the todo list: \(tasksAdded) new, "
                      + "\(tasksReplaced) replaced.")
            }
            if !problems.isEmpty {
                print("Left out (\(problems.count)):")
                for problem in problems.prefix(50) { print(TerminalText.safe("  " + problem)) }
                if problems.count > 50 { print("  and \(problems.count - 50) more") }
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write your events (of a range, or all) and your todo list as one iCalendar file (to standard output, or --output FILE).")

        @Option(help: ArgumentHelp("Only events reaching into this day or later (YYYY-MM-DD).", valueName: "DATE")) var from: String?
        @Option(help: ArgumentHelp("Only events reaching into this day or earlier (YYYY-MM-DD).", valueName: "DATE")) var to: String?
        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (readable by you alone); without it, standard output.", valueName: "FILE"))
        var output: String?
        @OptionGroup var server: ServerOption

        func validate() throws {
            for (name, value) in [("from", from), ("to", to)] {
                if let value, CalendarDate(iso: value) == nil {
                    throw ValidationError(TerminalText.safe("--\(name) \(value) is not a day: write it as YYYY-MM-DD, e.g. 2026-11-30"))
                }
            }
            if let from, let to, from > to { throw ValidationError("--to must not be before --from") }
        }

        func run() async throws {
            let client = try await server.client()
            var zones: [String: ICalComponent] = [:]
            var events: [ICalComponent] = []
            // The events of the range, then the todo list's tasks.
            for (path, first) in [(APIPath.calendarExport, [("from", from), ("to", to)].compactMap { name, value in value.map { (name: name, value: $0) } }),
                                  (APIPath.todoExport, [])] {
                var query = first
                var pages = 0
                while pages < 10_000 {
                    pages += 1
                    let response: HTTPClient.Response
                    do {
                        response = try await client.send(HTTPClient.Request(.get, path, query: query, headers: [(name: "Accept", value: "text/calendar")]))
                    } catch {
                        throw CommandError(explaining: error, doing: "export your calendar")
                    }
                    guard let calendar = try? ICalendarText.read(String(decoding: response.body, as: UTF8.self)).first else {
                        throw CommandError("the server's answer is not iCalendar: is --bff a TermCanvas server of November 2026 or later?")
                    }
                    for zone in calendar.components(named: "VTIMEZONE") { if let id = zone["TZID"]?.value, zones[id] == nil { zones[id] = zone } }
                    events += calendar.components.filter { $0.name != "VTIMEZONE" }
                    guard let next = response.header("Link").flatMap(CalendarFile.nextCursor) else { break }
                    query = query.filter { $0.name != "cursor" } + [(name: "cursor", value: next)]
                }
            }
            let text = ICalendarText.write([ICalComponent(name: "VCALENDAR", properties: [
                ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: EventResource.productID),
            ], components: zones.keys.sorted().compactMap { zones[$0] } + events)])
            guard let output else {
                // On a terminal, what other programs wrote in it is shown, not obeyed.
                print(isatty(STDOUT_FILENO) == 1 ? TerminalText.safeLines(text.replacing("\r\n", with: "\n")) : text, terminator: "")
                return
            }
            do {
                try PrivateFile.write(text, to: URL(fileURLWithPath: output))
            } catch {
                throw CommandError(TerminalText.safe("could not write \(output): \(error)"))
            }
            let count = Set(events.filter { $0.name == "VEVENT" }.compactMap { $0["UID"]?.value }).count
            let tasks = events.filter { $0.name == "VTODO" }.count
            print(TerminalText.safe("Wrote \(count) event\(count == 1 ? "" : "s") and \(tasks) task\(tasks == 1 ? "" : "s") to \(output)."))
        }
    }
}

/// iCalendar files as the commands read and send them.
enum CalendarFile {
    /// A file's size, at most: a calendar of ten years of a busy life is a few megabytes.
    static let maximumBytes = 64 * 1024 * 1024

    /// The text of `path` (`-`: standard input).
    static func read(_ path: String) throws -> String {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandError(TerminalText.safe(errno == ENOENT ? "there is no file \(path)" : "cannot read \(path): you may not open it"))
        }
        defer { if path != "-" { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw CommandError(TerminalText.safe("cannot read \(path): is it a file?")) }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
            guard bytes.count <= maximumBytes else {
                throw CommandError(TerminalText.safe("\(path) is larger than \(maximumBytes / 1024 / 1024) MiB: split it, or import its years apart"))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bodies of the import's requests: the events' and tasks' components as calendars of at
    /// most the server's request size, each with the time zones its components use.
    static func requests(of parts: [(components: [ICalComponent], timeZones: [ICalComponent], bytes: Int)], limit: Int = 60 * 1024) -> [String] {
        var bodies: [String] = []
        var batch: [(components: [ICalComponent], timeZones: [ICalComponent], bytes: Int)] = []
        var size = 0
        func flush() {
            guard !batch.isEmpty else { return }
            var zones: [String: ICalComponent] = [:]
            for part in batch { for zone in part.timeZones { if let id = zone["TZID"]?.value { zones[id] = zone } } }
            bodies.append(ICalendarText.write([ICalComponent(name: "VCALENDAR", properties: [
                ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: EventResource.productID),
            ], components: zones.keys.sorted().compactMap { zones[$0] } + batch.flatMap(\.components))]))
            batch = []
            size = 0
        }
        for part in parts {
            if size + part.bytes > limit { flush() }
            batch.append(part)
            size += part.bytes
        }
        flush()
        return bodies
    }

    /// The cursor of a `Link: <…?…&cursor=ID>; rel="next"`.
    static func nextCursor(_ link: String) -> String? {
        guard link.contains("rel=\"next\""), let start = link.firstRange(of: "cursor=") else { return nil }
        let digits = link[start.upperBound...].prefix { ("0"..."9").contains($0) }
        return digits.isEmpty ? nil : String(digits)
    }
}
