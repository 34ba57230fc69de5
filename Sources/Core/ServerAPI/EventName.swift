/// Names of live events, `source.entity.action`; the `data` of each is named in its comment.
public enum EventName: String, Codable, Sendable, CaseIterable {
    /// A `TodoItem`.
    case todoItemCreated = "todo.item.created"
    /// A `TodoItem`.
    case todoItemUpdated = "todo.item.updated"
    /// `{"id": N}`.
    case todoItemDeleted = "todo.item.deleted"
    /// A `CalendarEvent`.
    case calendarEventCreated = "calendar.event.created"
    /// A `CalendarEvent`.
    case calendarEventUpdated = "calendar.event.updated"
    /// `{"id": N}`.
    case calendarEventDeleted = "calendar.event.deleted"
    /// A `CalendarCollection`: a calendar subscribed to.
    case calendarCollectionCreated = "calendar.collection.created"
    /// A `CalendarCollection`: renamed, coloured, or read again, its events maybe changed (a
    /// client reloads the ones it shows).
    case calendarCollectionUpdated = "calendar.collection.updated"
    /// `{"id": N}`: a calendar removed with its events.
    case calendarCollectionDeleted = "calendar.collection.deleted"
    /// A `ChatChannel`.
    case chatChannelCreated = "chat.channel.created"
    /// A `ChatMessage`.
    case chatMessagePosted = "chat.message.posted"
    /// A `MicroAppInfo`: a version of a remote micro-app was published (everyone hears it).
    case registryAppPublished = "registry.app.published"
    /// `{"id": "deploys"}`: a remote micro-app was withdrawn.
    case registryAppWithdrawn = "registry.app.withdrawn"
    /// `{"id": "deploys", "health": AppHealth}`: a remote micro-app's health changed.
    case registryAppHealth = "registry.app.health"
    /// A `CanvasChangeEvent`: a shared canvas changed (each member hears it).
    case canvasChangeApplied = "canvas.change.applied"
    /// A `CanvasPresence`: who has a shared canvas open changed (each member hears it).
    case canvasPresenceChanged = "canvas.presence.changed"
    /// A `SessionInfo`: a new sign-in as this user (by password or single sign-on), which every
    /// dashboard of theirs says once, so a sign-in they did not make is seen.
    case authSessionStarted = "auth.session.started"
    /// `{}`: the `Last-Event-ID` a client resumed from is older than the server keeps, so events
    /// were missed; the client should reload what it shows.
    case streamReset = "bff.stream.reset"
    /// `{}`: the first event of a stream opened without `Last-Event-ID`. Its id is the newest
    /// event the server has made, so a client that keeps it can later resume from this point
    /// even if nothing happens meanwhile.
    case streamOpened = "bff.stream.opened"

    /// The micro-app that publishes this event (`todo`, `calendar`, `chat`), or nil for the stream's own.
    public var app: String? {
        let source = rawValue.prefix { $0 != "." }
        return source == "bff" ? nil : String(source)
    }
}
