/// What a commit changed, as told to those that keep copies of what it makes stale
/// (`LiveEventHub.observeCommits`), before any live event stream hears of it.
package enum CommittedChange: Sendable, Equatable {
    /// The live event `name` of `owner` (nil: everyone's) committed.
    case event(name: String, owner: Int64?)
    /// A user was deleted, with everything of theirs.
    case userDeleted(Int64)
    /// Changes may have committed unseen: another instance's, while its notifications could not
    /// reach this one.
    case unseen
}
