import CalendarTime
import CanvasCore
import Foundation
import MicroAppAPI

/// The server's data, whichever engine keeps it: users, their todo items and calendar events,
/// shared chat channels, the live event log, idempotency keys, the registry and the webhook queue.
/// `SQLiteStore` is the embedded default.
///
/// Writes are named after intent; every todo and calendar operation takes the owner's id, so one
/// user can never read or change another's data. Every write that changes data records its live
/// event in the same transaction, published to `liveEvents` once it commits. The writes a client
/// may retry keep the request's `Idempotency-Key` in that transaction too (`IdempotentRequest`).
public protocol BFFStore: Sendable {
    /// Where committed changes are published to this server's live event streams.
    var liveEvents: LiveEventHub { get }
    /// Todo list pages as last served; a change to a user's todos drops theirs.
    var todoPages: TodoPageCache { get }

    /// Throws unless the database can be reached and read now, for `/ready`.
    func checkReadable() async throws

    // MARK: Users

    @discardableResult
    func addUser(name: String, password: String?, isAdmin: Bool) async throws -> BFFUser
    /// The user if the password is theirs; a user without a password (the local one) never matches.
    func authenticate(name: String, password: String) async throws -> BFFUser?
    func user(id: Int64) async throws -> BFFUser?
    func user(named name: String) async throws -> BFFUser?
    func users() async throws -> [BFFUser]
    /// Returns whether there is such a user.
    @discardableResult
    func setAdmin(name: String, _ isAdmin: Bool) async throws -> Bool
    /// Deletes the user and everything of theirs; returns whether there was one.
    @discardableResult
    func deleteUser(name: String) async throws -> Bool

    // MARK: Todo

    func createTodo(owner: Int64, title: String, notes: String, due: CalendarDate?) async throws -> TodoItem
    func todo(id: Int64, owner: Int64) async throws -> TodoItem?
    func todos(owner: Int64, query: TodoQuery) async throws -> (items: [TodoItem], more: Bool)
    func updateTodo(id: Int64, owner: Int64, change: TodoChange) async throws -> TodoItem?
    func deleteTodo(id: Int64, owner: Int64) async throws -> Bool

    // MARK: Calendar

    func createCalendarEvent(owner: Int64, title: String, start: UTCInstant, end: UTCInstant, allDay: Bool) async throws -> CalendarEvent
    func calendarEvent(id: Int64, owner: Int64) async throws -> CalendarEvent?
    func calendarEvents(owner: Int64, query: CalendarQuery) async throws -> (items: [CalendarEvent], more: Bool)
    /// Applies `change` to `owner`'s event in one transaction; nil when there is no such event of theirs.
    func updateCalendarEvent(id: Int64, owner: Int64, applying change: @escaping @Sendable (CalendarEvent) throws -> CalendarEvent) async throws
        -> CalendarEvent?
    func deleteCalendarEvent(id: Int64, owner: Int64) async throws -> Bool

    // MARK: Chat

    func chatChannels(after: String?, limit: Int) async throws -> (items: [ChatChannel], more: Bool)
    func createChatChannel(name: String, createdBy: String) async throws -> ChannelCreation
    /// Nil when there is no such channel.
    func postChatMessage(channel: String, author: String, text: String) async throws -> ChatMessage?
    /// Nil when there is no such channel.
    func chatMessages(channel: String, before: Int64?, limit: Int) async throws -> (items: [ChatMessage], more: Bool)?

    // MARK: Shared canvases

    /// Nil when `owner` has a canvas by that name. Throws `CanvasLimitReached` past the limit.
    func createCanvas(owner: BFFUser, name: String, layout: LayoutData) async throws -> CanvasSnapshot?
    func canvases(visibleTo user: Int64, after: Int64?, limit: Int) async throws -> (items: [CanvasSummary], more: Bool)
    /// Nil when the canvas is not the user's to see.
    func canvas(_ id: Int64, visibleTo user: Int64, session: String?) async throws -> CanvasSnapshot?
    func deleteCanvas(_ id: Int64, owner: BFFUser) async throws -> Bool
    func submitCanvasEdit(_ id: Int64, by user: BFFUser, _ edit: CanvasEdit) async throws -> CanvasSubmission
    /// Nil when the canvas is not the user's to see.
    func canvasChanges(_ id: Int64, visibleTo user: Int64, after: Int, limit: Int) async throws -> CanvasChangePage?
    /// Nil when the canvas is not the user's to see.
    func canvasVersion(_ id: Int64, visibleTo user: Int64, version: Int) async throws -> CanvasVersionLookup?
    func renameCanvas(_ id: Int64, owner: BFFUser, to name: String) async throws -> CanvasRenaming
    /// Nil when the canvas is not the user's to see.
    func canvasPresence(_ id: Int64, visibleTo user: Int64) async throws -> CanvasPresence?
    /// Nil when the canvas is not the user's to see.
    func setCanvasPresence(_ id: Int64, by user: BFFUser, session: String, open: Bool) async throws -> CanvasPresence?
    /// Nil when the canvas is not the user's to see.
    func canvasMembers(_ id: Int64, visibleTo user: Int64) async throws -> [CanvasMember]?
    /// A nil role takes the membership away.
    func setCanvasMember(_ id: Int64, owner: BFFUser, member: String, role: CanvasRole?) async throws -> CanvasMembership

    // MARK: Audit

    /// One page of the audit log, newest first, older than the entry `before` if given.
    func auditEntries(before: Int64?, limit: Int) async throws -> (items: [AuditEntry], more: Bool)

    // MARK: Live events

    /// The id of the newest live event ever made (0 for none), kept even when that event is pruned.
    func newestLiveEventID() async throws -> Int64
    /// The events after `lastID` that `user` may see, oldest first, at most `limit`; or `.reset`
    /// when some of them are no longer kept.
    func liveEvents(after lastID: Int64, visibleTo user: Int64, limit: Int) async throws -> LiveEventReplay

    // MARK: Registry

    /// Makes the built-in apps rows of the registry, and withdraws those not hosted.
    func registerBuiltIns(_ apps: Set<MicroApp>) async throws
    func registryApps(matching text: String?, kind: RegistryAppKind?, after cursor: String?, limit: Int) async throws
        -> (items: [RegistryEntry], more: Bool)
    func registryApp(_ id: String) async throws -> RegistryEntry?
    /// Every remote app not withdrawn, with its current entry.
    func remoteEntries() async throws -> [(id: String, entry: URL)]
    func publish(_ manifest: RegistryManifest, version: SemanticVersion, entry: URL, by user: BFFUser, rotateSecrets: Bool,
                 makeSecret: @escaping @Sendable () -> String) async throws -> PublishOutcome
    func withdraw(_ id: String, by user: BFFUser) async throws -> WithdrawOutcome
    /// Returns whether the app exists.
    func grant(_ app: String, to user: Int64) async throws -> Bool
    func revoke(_ app: String, from user: Int64) async throws -> Bool
    func isGranted(_ app: String, to user: Int64) async throws -> Bool
    /// Records a health change for every dashboard's live stream.
    func recordHealth(_ change: AppHealthChange) async throws

    // MARK: Webhooks

    /// Stores an accepted webhook for delivery; nil when its signature was seen before (a replay).
    func acceptHook(app: String, signature: String, event: String, data: String, now: Date) async throws -> Int64?
    func pendingHookDeliveries(limit: Int) async throws -> [HookDelivery]
    /// Records the delivery's event for every user the app is granted to, and ends the delivery, in one transaction.
    func deliver(_ delivery: HookDelivery) async throws
    func recordFailedDelivery(_ delivery: HookDelivery) async throws
}

extension BFFStore {
    @discardableResult
    public func addUser(name: String, password: String?) async throws -> BFFUser {
        try await addUser(name: name, password: password, isAdmin: false)
    }

    public func liveEvents(after lastID: Int64, visibleTo user: Int64) async throws -> LiveEventReplay {
        try await liveEvents(after: lastID, visibleTo: user, limit: 1000)
    }

    func acceptHook(app: String, signature: String, event: String, data: String) async throws -> Int64? {
        try await acceptHook(app: app, signature: signature, event: event, data: data, now: Date())
    }
}
