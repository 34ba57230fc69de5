import ServerAPI

/// What creating a channel gave.
package enum ChannelCreation: Equatable, Sendable, Codable {
    case created(ChatChannel)
    case exists
    /// The user has made `ChatLimits.channelsPerUser` channels already.
    case limitReached
}
