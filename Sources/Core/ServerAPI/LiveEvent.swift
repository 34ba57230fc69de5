/// One server-sent event of `GET /api/events`: `id:`, `event:` and `data:` lines.
///
/// `id` rises strictly; send the last one seen as `Last-Event-ID` on reconnect to get what was missed.
/// `data` is the JSON the event's name documents (see `EventName`), kept as text so a client decodes
/// only the events it cares about.
public struct LiveEvent: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var data: String

    public init(id: Int64, name: String, data: String) {
        self.id = id
        self.name = name
        self.data = data
    }

    /// The event's known name, or nil for a name this client does not know (a newer server).
    public var knownName: EventName? { EventName(rawValue: name) }

    /// The event in the `text/event-stream` wire format, ending with the blank line that dispatches it.
    public var wireFormat: String {
        // `data` is single-line JSON (encoders escape newlines), so one data line carries it.
        "id: \(id)\nevent: \(name)\ndata: \(data)\n\n"
    }
}
