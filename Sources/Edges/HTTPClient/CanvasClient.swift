import CanvasCore
import ServerAPI

/// The server's shared canvases (`/api/canvas`), typed: the one way the dashboard's link
/// (`SharedCanvasLink`) and the `layout` commands call them. Errors are the client's
/// (`HTTPClientError`); each caller words them for what it was doing.
public struct CanvasClient: Sendable {
    let http: HTTPClient

    public init(_ http: HTTPClient) {
        self.http = http
    }

    /// One page of the canvases the caller owns or was given, after `cursor`.
    public func page(after cursor: String? = nil, limit: Int) async throws(HTTPClientError) -> Page<CanvasSummary> {
        var query = [(name: "limit", value: String(limit))]
        if let cursor { query.append((name: "cursor", value: cursor)) }
        return try await http.get(APIPath.canvases, query: query)
    }

    /// Every canvas the caller owns or was given, page by page.
    public func all() async throws(HTTPClientError) -> [CanvasSummary] {
        var all: [CanvasSummary] = []
        var cursor: String?
        repeat {
            let page = try await page(after: cursor, limit: 200)
            all += page.items
            cursor = page.next
        } while cursor != nil
        return all
    }

    /// Stores `layout` as a new canvas of the caller's, under its name.
    public func create(_ layout: LayoutData) async throws(HTTPClientError) -> CanvasSnapshot {
        try await http.post(APIPath.canvases, body: NewCanvas(name: layout.name, layout: layout))
    }

    /// The canvas as the server has it now; with `session`, how far it answered that session's edits.
    public func snapshot(_ id: Int64, session: String? = nil) async throws(HTTPClientError) -> CanvasSnapshot {
        try await http.get(APIPath.canvas(id), query: session.map { [(name: "session", value: $0)] } ?? [])
    }

    /// Its layout as it was at `version`.
    public func version(_ id: Int64, _ version: Int) async throws(HTTPClientError) -> CanvasVersion {
        try await http.get(APIPath.canvasVersion(id, version: version))
    }

    public func rename(_ id: Int64, to name: String) async throws(HTTPClientError) -> CanvasSummary {
        try await http.patch(APIPath.canvas(id), body: CanvasRename(name: name))
    }

    public func delete(_ id: Int64) async throws(HTTPClientError) {
        try await http.delete(APIPath.canvas(id))
    }

    /// Sends one edit; the answer says whether the server applied or refused it.
    public func submit(_ edit: CanvasEdit, to id: Int64) async throws(HTTPClientError) -> CanvasEditAnswer {
        try await http.post(APIPath.canvasChanges(id), body: edit)
    }

    /// One page of the changes the server keeps, oldest first, after `cursor`.
    public func changes(_ id: Int64, after cursor: String? = nil) async throws(HTTPClientError) -> Page<CanvasChange> {
        var query = [(name: "limit", value: String(CanvasLimits.maxChangePageSize))]
        if let cursor { query.append((name: "after", value: cursor)) }
        return try await http.get(APIPath.canvasChanges(id), query: query)
    }

    /// Who has the canvas open.
    public func presence(_ id: Int64) async throws(HTTPClientError) -> CanvasPresence {
        try await http.get(APIPath.canvasPresence(id))
    }

    /// Says this session opened (`open`) or closed the canvas; who has it open now.
    public func setPresence(_ id: Int64, session: String, open: Bool) async throws(HTTPClientError) -> CanvasPresence {
        try await http.send(open ? .put : .delete, APIPath.canvasPresence(id, session: session))
    }

    public func members(_ id: Int64) async throws(HTTPClientError) -> [CanvasMember] {
        try await http.get(APIPath.canvasMembers(id))
    }

    public func setMember(_ id: Int64, _ user: String, role: CanvasRole) async throws(HTTPClientError) {
        try await http.put(APIPath.canvasMember(id, user: user), json: CanvasMemberRole(role: role))
    }

    public func removeMember(_ id: Int64, _ user: String) async throws(HTTPClientError) {
        try await http.delete(APIPath.canvasMember(id, user: user))
    }
}

extension HTTPClient {
    /// The server's shared canvases, typed.
    public var canvases: CanvasClient { CanvasClient(self) }
}
