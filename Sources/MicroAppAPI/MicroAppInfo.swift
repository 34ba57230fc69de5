/// One micro-app in `GET /api/registry/apps`: what the dashboard's widget catalog shows and where
/// the app's API lives.
public struct MicroAppInfo: Codable, Sendable, Equatable {
    /// The app's id, also its widget kind: `todo`, `calendar`, `chat`.
    public var id: String
    public var name: String
    public var version: String
    public var description: String
    /// The prefix of the app's routes, e.g. `/api/todo`.
    public var basePath: String
    /// The live events it publishes (`EventName` raw values).
    public var events: [String]

    public init(id: String, name: String, version: String, description: String, basePath: String, events: [String]) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.basePath = basePath
        self.events = events
    }
}
