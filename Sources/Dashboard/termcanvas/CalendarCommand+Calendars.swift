import ArgumentParser
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import ServerAPI

/// `termcanvas calendar subscribe|connect|list|change|refresh|remove`: calendars besides your own,
/// which the server keeps (so every dashboard of yours shows them), reads again or syncs when due.
extension CalendarCommand {
    struct Subscribe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "subscribe",
            abstract: "Subscribe to a calendar published at a URL (https:// or webcal://): shown read-only, read again hourly or as it asks.",
            discussion: """
                The server reads the address once now, so a wrong one is said at once, and then again when it is due, \
                asking whether it changed (ETag, If-Modified-Since). Its events are shown in its colour beside yours and \
                cannot be changed here: change them where the calendar comes from. Holidays, a team's rota, a sports \
                fixture list and Google's or Outlook's "secret address in iCal format" are such addresses.
                """)

        @Argument(help: ArgumentHelp("The calendar's address: https://…, or webcal://… as sites publish it.", valueName: "URL")) var url: String
        @Option(help: ArgumentHelp("Its name here; by default the calendar's own, or the address's host.", valueName: "NAME")) var name: String?
        @Option(help: ArgumentHelp("How its events are drawn: #RRGGBB, or \(CalendarColours.names).", valueName: "COLOUR")) var colour: String?
        @OptionGroup var server: ServerOption

        func validate() throws {
            if let colour, CalendarColours.hex(colour) == nil { throw ValidationError(TerminalText.safe(CalendarColours.problem(colour))) }
        }

        func run() async throws {
            // The server reads the address before it answers: up to 20 s of its own.
            let client = try await server.client(configuration: .init(totalTimeout: .seconds(45)))
            let made: CalendarCollection
            do {
                made = try await client.post(APIPath.calendarSubscriptions,
                                             body: NewCalendarSubscription(url: url, name: name, colour: colour.flatMap(CalendarColours.hex)),
                                             as: CalendarCollection.self)
            } catch {
                throw CommandError(explaining: error, doing: "subscribe to \(url)")
            }
            print(TerminalText.safe("Subscribed to \(made.name) (\(made.id)): \(made.events) event\(made.events == 1 ? "" : "s"), "
                                    + "read again \(CalendarListing.when(made.nextRefreshAt))."))
        }
    }

    struct Connect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "connect",
            abstract: "Sync your calendars on a CalDAV server (Nextcloud, Fastmail, iCloud, Radicale…) both ways.",
            discussion: """
                The server finds your calendars from the address (the server's own, such as https://cloud.example.org/, is \
                enough where it publishes /.well-known/caldav) and syncs those holding events and tasks (a task list's tasks \
                are your todo items), or the ones --calendar names: at once, every five minutes, and at once when you change \
                one here. New events and todo items go to the first calendar and the first task list unless --keep-default. \
                The password (use an app password where the server has them: Fastmail, iCloud, Nextcloud with two-factor \
                sign-in) is asked for on the terminal, or read from --password-file, and the server keeps it sealed with its \
                key; it is shown nowhere. An event or a task changed on both sides keeps the server's version and yours as a \
                copy, and calendar list says so.
                """)

        @Argument(help: ArgumentHelp("The CalDAV server's address.", valueName: "URL")) var url: String
        @Option(help: ArgumentHelp("Your user name there.", valueName: "NAME")) var user: String
        @Option(help: ArgumentHelp("A file holding the password (its first line), instead of a prompt.", valueName: "FILE")) var passwordFile: String?
        @Option(name: .customLong("calendar"), help: ArgumentHelp("A calendar to sync, by name (repeat for more); all of them by default.",
                                                                 valueName: "NAME"))
        var calendars: [String] = []
        @Flag(help: "Keep new events and todo items going where they went (your own) instead of the first synced calendar and task list.")
        var keepDefault = false
        @OptionGroup var server: ServerOption

        func run() async throws {
            let password: String
            if let passwordFile {
                let text = try CalendarFile.read(passwordFile)
                // Its first line, as written (a password may end with a space), without a CR.
                password = String((text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").filter { $0 != "\r" })
                guard !password.isEmpty else { throw CommandError(TerminalText.safe("\(passwordFile) holds no password on its first line")) }
            } else {
                do {
                    password = try PasswordInput.read(prompt: TerminalText.safe("Password (or app password) for \(user) at \(url): "))
                } catch {
                    throw CommandError(error.description)
                }
            }
            let client = try await server.client(configuration: .init(totalTimeout: .seconds(90)))
            let synced: [CalendarCollection]
            do {
                synced = try await client.post(APIPath.calendarCalDAV, body: NewCalDAVConnection(url: url, user: user, password: password,
                                                                                                  calendars: calendars.isEmpty ? nil : calendars,
                                                                                                  makeDefault: !keepDefault),
                                               as: Page<CalendarCollection>.self).items
            } catch {
                throw CommandError(explaining: error, doing: "connect to \(url)")
            }
            for calendar in synced {
                print(TerminalText.safe("Syncing \(calendar.name) (\(calendar.id))" + (calendar.taskList == true ? ", a task list." : ".")))
            }
            guard !keepDefault else { return }
            if let first = synced.first(where: { $0.taskList != true }) { print(TerminalText.safe("New events go to \(first.name).")) }
            if let first = synced.first(where: { $0.taskList == true }) { print(TerminalText.safe("New todo items go to \(first.name).")) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List your calendars: your own, and each subscription with its events, colour and last reading.")

        @OptionGroup var server: ServerOption

        func run() async throws {
            let client = try await server.client()
            let calendars: [CalendarCollection]
            do {
                calendars = try await client.get(APIPath.calendars, as: Page<CalendarCollection>.self).items
            } catch {
                throw CommandError(explaining: error, doing: "list your calendars")
            }
            print(CalendarListing.table(calendars), terminator: "")
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change", abstract: "Rename a calendar or change its colour (here only).")

        @Argument(help: ArgumentHelp("The calendar: its number or its name (calendar list shows them).", valueName: "CALENDAR")) var calendar: String
        @Option(help: ArgumentHelp("Its new name.", valueName: "NAME")) var name: String?
        @Option(help: ArgumentHelp("Its new colour: #RRGGBB, \(CalendarColours.names), or none.", valueName: "COLOUR")) var colour: String?
        @OptionGroup var server: ServerOption

        func validate() throws {
            guard name != nil || colour != nil else { throw ValidationError("say what changes: --name NAME, --colour COLOUR, or both") }
            if let colour, colour != "none", CalendarColours.hex(colour) == nil { throw ValidationError(TerminalText.safe(CalendarColours.problem(colour))) }
        }

        func run() async throws {
            let client = try await server.client()
            let found = try await CalendarListing.find(calendar, client: client)
            let patch = CalendarCollectionPatch(name: name, colour: colour.map { $0 == "none" ? "" : CalendarColours.hex($0) ?? $0 })
            do {
                let changed = try await client.patch(APIPath.calendar(found.id), body: patch, as: CalendarCollection.self)
                print(TerminalText.safe("Changed \(changed.name) (\(changed.id))."))
            } catch {
                throw CommandError(explaining: error, doing: "change \(found.name)")
            }
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "refresh",
                                                        abstract: "Read subscribed calendars again and sync connected ones now (all of them, or the one named).")

        @Argument(help: ArgumentHelp("The calendar: its number or its name; without it, every subscription.", valueName: "CALENDAR")) var calendar: String?
        @OptionGroup var server: ServerOption

        func run() async throws {
            let client = try await server.client(configuration: .init(totalTimeout: .seconds(45)))
            let chosen = if let calendar { [try await CalendarListing.find(calendar, client: client)] } else { try await CalendarListing.all(client: client) }
            var failed = 0
            for one in chosen {
                do throws(HTTPClientError) {
                    let read = try await client.send(.post, APIPath.calendarRefresh(one.id), as: CalendarCollection.self)
                    if let problem = read.problem {
                        failed += 1
                        print(TerminalText.safe("\(read.name): not read: \(problem). Its \(CalendarListing.holdings(read)) stay as they were."))
                    } else {
                        print(TerminalText.safe("\(read.name): \(CalendarListing.holdings(read))."))
                    }
                } catch {
                    throw CommandError(explaining: error, doing: "read \(one.name) again")
                }
            }
            if chosen.isEmpty { print("You have no calendars besides your own: calendar subscribe URL or calendar connect URL adds one.") }
            if failed > 0 { throw ExitCode(1) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a subscribed or connected calendar and its events from here (the calendar itself, where it comes from, is not touched).",
            aliases: ["unsubscribe"])

        @Argument(help: ArgumentHelp("The calendar: its number or its name (calendar list shows them).", valueName: "CALENDAR")) var calendar: String
        @OptionGroup var server: ServerOption

        func run() async throws {
            let client = try await server.client()
            let found = try await CalendarListing.find(calendar, client: client)
            do {
                try await client.delete(APIPath.calendar(found.id))
            } catch {
                throw CommandError(explaining: error, doing: "remove \(found.name)")
            }
            print(TerminalText.safe("Removed \(found.name) and its \(CalendarListing.holdings(found))."))
        }
    }
}

/// Calendars as the commands name and show them.
enum CalendarListing {
    static func all(client: HTTPClient) async throws -> [CalendarCollection] {
        do {
            return try await client.get(APIPath.calendars, as: Page<CalendarCollection>.self).items
        } catch {
            throw CommandError(explaining: error, doing: "list your calendars")
        }
    }

    /// The calendar `text` names: by number, else by name (case ignored).
    static func find(_ text: String, client: HTTPClient) async throws -> CalendarCollection {
        let calendars = try await all(client: client)
        if let id = Int64(text), let found = calendars.first(where: { $0.id == id }) { return found }
        let named = calendars.filter { $0.name.lowercased() == text.lowercased() }
        if named.count == 1 { return named[0] }
        let known = calendars.map { "\($0.id) \($0.name)" }.joined(separator: ", ")
        throw CommandError(TerminalText.safe(named.isEmpty
            ? "you have no calendar \(text)" + (known.isEmpty ? ": calendar subscribe URL makes one" : " (yours: \(known))")
            : "more than one calendar is named \(text): name it by number (\(named.map { String($0.id) }.joined(separator: ", ")))"))
    }

    /// The list with a header: yours first, then each subscription.
    static func table(_ calendars: [CalendarCollection]) -> String {
        var rows = [["#", "NAME", "KIND", "HOLDS", "COLOUR", "READ", "NEXT"], ["-", "Your calendar", "yours", "", "theme", "", ""]]
        for calendar in calendars {
            rows.append([String(calendar.id), calendar.name, calendar.kind, holdings(calendar), calendar.colour ?? "theme",
                         calendar.refreshedAt.map(short) ?? "never", calendar.nextRefreshAt.map(short) ?? ""])
        }
        let widths = rows[0].indices.map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell)) }
            text += TerminalText.safe(cells.joined(separator: "  ").trimmingTrailingSpaces) + "\n"
        }
        for calendar in calendars {
            if let problem = calendar.problem { text += TerminalText.safe("\(calendar.name): last reading failed: \(problem)") + "\n" }
            if let url = calendar.url { text += TerminalText.safe("\(calendar.id): \(url)") + "\n" }
        }
        return text
    }

    /// `12 events`, or a task list's `3 tasks`.
    static func holdings(_ calendar: CalendarCollection) -> String {
        let noun = calendar.taskList == true ? "task" : "event"
        return "\(calendar.events) \(noun)\(calendar.events == 1 ? "" : "s")"
    }

    /// `2026-11-28T09:30:00Z` as `2026-11-28 09:30 UTC`.
    static func short(_ iso: String) -> String {
        iso.count >= 16 ? iso.prefix(10) + " " + iso.dropFirst(11).prefix(5) + " UTC" : iso
    }

    /// When the next reading is, in words.
    static func when(_ iso: String?) -> String {
        iso.map { "from " + short($0) } ?? "when due"
    }
}

/// Colours a calendar may be given by name, beside `#RRGGBB`.
enum CalendarColours {
    static let named: KeyValuePairs<String, String> = [
        "red": "#cc3333", "orange": "#dd7722", "yellow": "#ccaa22", "green": "#339944", "teal": "#228888",
        "blue": "#3366cc", "purple": "#8844bb", "pink": "#cc4488", "grey": "#888888",
    ]

    static var names: String { named.map(\.key).joined(separator: ", ") }

    /// `text` as `#RRGGBB`, or nil when it is no colour.
    static func hex(_ text: String) -> String? {
        if CalendarCollectionLimits.isColour(text) { return text.lowercased() }
        return named.first { $0.key == text.lowercased() }?.value
    }

    static func problem(_ text: String) -> String {
        "\(text) is not a colour: write it as #RRGGBB (e.g. #3366cc) or name one of \(names)"
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
