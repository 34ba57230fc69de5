import CanvasCore
import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// `/api/canvas`: shared canvases. A canvas is its owner's; members see it (viewers) or arrange it
/// too (editors). Edits are ordered by the server (`CanvasLog`): each is answered `ordered`,
/// `refused` or `repeated`, and every member hears an ordered change on the live stream
/// (`canvas.change.applied`) and can catch up with `GET …/changes?after=VERSION`. Someone who is
/// not a member gets 404, as for a canvas that does not exist.
package struct CanvasController {
    let store: BFFStore

    package init(store: BFFStore) {
        self.store = store
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("", use: list)
        group.post("", use: create)
        group.get("{id}", use: show)
        group.patch("{id}", use: rename)
        group.delete("{id}", use: delete)
        group.get("{id}/changes", use: changes)
        group.get("{id}/versions/{version}", use: version)
        group.post("{id}/changes", use: edit)
        group.get("{id}/members", use: members)
        group.put("{id}/members/{user}", use: setMember)
        group.delete("{id}/members/{user}", use: removeMember)
        group.get("{id}/presence", use: presence)
        group.put("{id}/presence/{session}", use: opened)
        group.delete("{id}/presence/{session}", use: closed)
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let limit = try request.pageLimit(maximum: CanvasLimits.canvasesPerUser * 4, default: CanvasLimits.canvasesPerUser)
        let after = try request.pageCursor(Request.idCursor)
        let page = try await store.canvases(visibleTo: user.id, after: after, limit: limit)
        return try .json(Page(items: page.items, next: page.more ? page.items.last.map { String($0.id) } : nil))
    }

    @Sendable func create(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let new = try await request.decodeJSON(NewCanvas.self, context: context)
        guard CanvasLimits.isName(new.name) else {
            throw Self.badName
        }
        if let problem = CanvasLimits.problem(with: new.layout) { throw APIFailure.badRequest(problem, field: "layout") }
        do {
            guard let snapshot = try await store.createCanvas(owner: user, name: new.name, layout: new.layout) else {
                throw APIFailure.conflict("you have a canvas by that name", field: "name")
            }
            return try .json(snapshot, status: .created)
        } catch is CanvasLimitReached {
            throw APIFailure(status: .forbidden, body: APIError(error: "a user may own at most \(CanvasLimits.canvasesPerUser) canvases", field: "name"))
        } catch let tooLarge as CanvasTooLarge {
            throw APIFailure.badRequest("its panes' settings and state take \(tooLarge.bytes) bytes as JSON; a canvas holds at most \(CanvasLimits.bytesMax)",
                                        field: "layout")
        }
    }

    @Sendable func show(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let session = request.uri.queryParameters.get("session")
        if let session, !CanvasLimits.isSession(session) { throw Self.badSession(field: "session") }
        guard let snapshot = try await store.canvas(try id(context), visibleTo: user.id, session: session) else { throw APIFailure.notFound }
        return try .json(snapshot)
    }

    @Sendable func rename(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let name = try await request.decodeJSON(CanvasRename.self, context: context).name
        guard CanvasLimits.isName(name) else {
            throw Self.badName
        }
        switch try await store.renameCanvas(try id(context), owner: user, to: name) {
        case .renamed(let summary): return try .json(summary)
        case .notFound: throw APIFailure.notFound
        case .notOwner: throw APIFailure(status: .forbidden, body: APIError(error: "only the canvas's owner renames it", field: nil))
        case .nameTaken: throw APIFailure.conflict("you have a canvas by that name", field: "name")
        }
    }

    @Sendable func delete(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard try await store.deleteCanvas(try id(context), owner: user) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }

    @Sendable func changes(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let limit = try request.pageLimit(maximum: CanvasLimits.maxChangePageSize, default: CanvasLimits.maxChangePageSize)
        let after = try request.uri.queryParameters.get("after").map { text -> Int in
            guard let version = Int(text), version >= 0, version < Int(Int32.max) else {
                throw APIFailure.badRequest("after must be a version from 0", field: "after")
            }
            return version
        } ?? 0
        switch try await store.canvasChanges(try id(context), visibleTo: user.id, after: after, limit: limit) {
        case nil:
            throw APIFailure.notFound
        case .compacted?:
            throw APIFailure(status: .gone, body: APIError(error: "changes this old are no longer kept; read the canvas again", field: "after"))
        case .changes(let changes, let more)?:
            return try .json(Page(items: changes, next: more ? changes.last.map { String($0.version) } : nil))
        }
    }

    @Sendable func version(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard let text = context.parameters.get("version"), let version = Int(text), (0..<Int(Int32.max)).contains(version) else {
            throw APIFailure.badRequest("a version is a number from 0", field: "version")
        }
        switch try await store.canvasVersion(try id(context), visibleTo: user.id, version: version) {
        case nil, .future?: throw APIFailure.notFound
        case .compacted?:
            throw APIFailure(status: .gone, body: APIError(error: "versions this old are no longer kept", field: "version"))
        case .found(let found)?: return try .json(found)
        }
    }

    @Sendable func edit(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let id = try id(context)
        let edit = try await request.decodeJSON(CanvasEdit.self, context: context)
        guard CanvasLimits.isSession(edit.session) else { throw Self.badSession(field: "session") }
        guard (1..<Int(Int32.max)).contains(edit.sequence) else {
            throw APIFailure.badRequest("sequence must be a number from 1", field: "sequence")
        }
        if let problem = CanvasLimits.problem(with: edit.operation) { throw APIFailure.badRequest(problem, field: "operation") }
        switch try await store.submitCanvasEdit(id, by: user, edit) {
        case .notFound:
            throw APIFailure.notFound
        case .readOnly:
            throw APIFailure(status: .forbidden, body: APIError(error: "you may view this canvas but not arrange it", field: nil))
        case .answered(.ordered(let change)):
            return try .json(CanvasEditAnswer(outcome: .ordered, change: change))
        case .answered(.refused(_, let reason)):
            return try .json(CanvasEditAnswer(outcome: .refused, reason: reason.description))
        case .answered(.repeated):
            return try .json(CanvasEditAnswer(outcome: .repeated))
        }
    }

    @Sendable func members(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard let members = try await store.canvasMembers(try id(context), visibleTo: user.id) else { throw APIFailure.notFound }
        return try .json(members)
    }

    @Sendable func setMember(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let role = try await request.decodeJSON(CanvasMemberRole.self, context: context).role
        return try await membership(try await store.setCanvasMember(try id(context), owner: user, member: try member(context), role: role))
    }

    @Sendable func removeMember(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        return try await membership(try await store.setCanvasMember(try id(context), owner: user, member: try member(context), role: nil))
    }

    @Sendable func presence(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard let presence = try await store.canvasPresence(try id(context), visibleTo: user.id) else { throw APIFailure.notFound }
        return try .json(presence)
    }

    @Sendable func opened(_ request: Request, context: BFFRequestContext) async throws -> Response {
        try await setPresence(context, open: true)
    }

    @Sendable func closed(_ request: Request, context: BFFRequestContext) async throws -> Response {
        try await setPresence(context, open: false)
    }

    private func setPresence(_ context: BFFRequestContext, open: Bool) async throws -> Response {
        let user = try context.authenticatedUser()
        guard let session = context.parameters.get("session"), CanvasLimits.isSession(session) else { throw Self.badSession(field: "session") }
        guard let presence = try await store.setCanvasPresence(try id(context), by: user, session: session, open: open) else {
            throw APIFailure.notFound
        }
        return try .json(presence)
    }

    private func membership(_ outcome: CanvasMembership) async throws -> Response {
        switch outcome {
        case .done: return Response(status: .noContent)
        case .notFound: throw APIFailure.notFound
        case .notOwner: throw APIFailure(status: .forbidden, body: APIError(error: "only the canvas's owner shares it", field: nil))
        case .noSuchUser: throw APIFailure(status: .notFound, body: APIError(error: "no such user", field: "user"))
        case .isOwner: throw APIFailure(status: .forbidden, body: APIError(error: "the owner's role is not a member's", field: "user"))
        case .limitReached:
            throw APIFailure(status: .forbidden, body: APIError(error: "a canvas has at most \(CanvasLimits.membersPerCanvas) members", field: "user"))
        }
    }

    private static let badName = APIFailure.badRequest(
        "must be 1 to \(CanvasLimits.nameMaxLength) characters without control characters", field: "name")

    private static func badSession(field: String) -> APIFailure {
        .badRequest("a session is 1 to \(CanvasLimits.sessionMaxLength) letters, digits, '-' or '_'", field: field)
    }

    private func id(_ context: BFFRequestContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = CursorID.parse(text) else { throw APIFailure.notFound }
        return id
    }

    private func member(_ context: BFFRequestContext) throws -> String {
        guard let name = context.parameters.get("user"), !name.isEmpty else { throw APIFailure.notFound }
        return name
    }
}
