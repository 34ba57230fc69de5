import ArgumentParser
import BFF
import CalendarTime
import Foundation
import ServerStore

/// `termcanvas-bff seed --data-dir DIR --todos N --messages N`: fills a SQLite data directory
/// (the local server's is `$XDG_DATA_HOME/termcanvas/bff`) with this OS user's todos (a tenth due
/// each day from 2026-11-01) and chat messages in `general`, straight through the server's store:
/// the dashboard's benchmarks with a large history (`scripts/bench-widgets`). Hidden: not for users.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill a data directory with todos and chat messages for benchmarks.",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The data directory to fill (its bff.sqlite).", valueName: "DIR"))
    var dataDir: String
    @Option(help: "How many todos to add.")
    var todos: Int = 0
    @Option(help: "How many chat messages to post.")
    var messages: Int = 0

    func validate() throws {
        guard todos >= 0, messages >= 0 else { throw ValidationError("--todos and --messages cannot be negative") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: dataDir)
        let store = BFFStore(try SQLiteStore.open(at: BFFConfiguration(dataDirectory: directory).databaseURL), bcryptCost: 4)
        let name = LocalAccount.defaultUserName
        let user = if let found = try await store.user(named: name) { found } else { try await store.addUser(name: name, password: nil) }
        for index in 0..<todos {
            let due = index % 10 == 0 ? CalendarDate(year: 2026, month: 11, day: 1 + index / 10 % 28) : nil
            _ = try await store.createTodo(owner: user.id, title: "Seeded item \(index + 1)", notes: "", due: due)
        }
        for index in 0..<messages {
            _ = try await store.postChatMessage(channel: "general", author: index % 3 == 0 ? name : "seed-bot", text: "Seeded message \(index + 1)")
        }
    }
}
