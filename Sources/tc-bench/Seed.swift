import BFF
import Foundation
import struct MicroAppAPI.CalendarDate

/// `tc-bench seed DATA_DIR TODOS MESSAGES`: fills a BFF data directory (the local server's is
/// `$XDG_DATA_HOME/termcanvas/bff`) with this OS user's todos (a tenth due each day from
/// 2026-11-01) and chat messages in `general`, straight through the server's store, for the
/// dashboard benchmarks with a large history (`scripts/bench-widgets`).
func seed(arguments: [String]) async throws {
    guard arguments.count == 3, let todos = Int(arguments[1]), let messages = Int(arguments[2]) else {
        throw SeedError.usage
    }
    let directory = URL(fileURLWithPath: arguments[0])
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try SQLiteStore.open(at: BFFConfiguration(dataDirectory: directory).databaseURL, bcryptCost: 4)
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

enum SeedError: Error, CustomStringConvertible {
    case usage

    var description: String { "usage: tc-bench seed DATA_DIR TODOS MESSAGES" }
}
