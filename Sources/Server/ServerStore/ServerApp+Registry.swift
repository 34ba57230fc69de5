import CanvasCore
import Foundation
import ServerAPI

/// The apps this server hosts and keeps the data of; `--apps` picks a subset.
extension ServerApp {
    /// The app as the registry describes it.
    package var info: MicroAppInfo {
        MicroAppInfo(
            id: rawValue, name: name, version: ServerApp.version, description: summary, basePath: "/api/\(rawValue)",
            events: EventName.allCases.filter { $0.app == rawValue }.map(\.rawValue)
        )
    }

    /// Every app ships with the server, so they share its version.
    package static let version = "0.2.0"

    private var name: String {
        switch self {
        case .todo: "Todo"
        case .calendar: "Calendar"
        case .chat: "Chat"
        }
    }

    private var summary: String {
        switch self {
        case .todo: "Your tasks, with done state and due dates."
        case .calendar: "Your events by day, with all-day events."
        case .chat: "Channels shared by everyone on this server."
        }
    }

    /// Parses `--apps todo,calendar,chat`.
    /// - Throws: `MicroAppListError` naming the unknown app, or for an empty list.
    package static func parseList(_ text: String) throws -> Set<ServerApp> {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw MicroAppListError(message: "--apps needs at least one of \(known)") }
        return try Set(names.map { name in
            guard let app = ServerApp(rawValue: name) else {
                throw MicroAppListError(message: "unknown app '\(name)' in --apps; known: \(known)")
            }
            return app
        })
    }

    private static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Why an `--apps` list was refused.
package struct MicroAppListError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
