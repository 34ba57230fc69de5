import ServerAPI

// What each keyed write returns, and whether it changed something.

extension TodoItem: KeyedResult {
    var changedSomething: Bool { true }
}

extension CalendarEvent: KeyedResult {
    var changedSomething: Bool { true }
}

extension ChatMessage: KeyedResult {
    var changedSomething: Bool { true }
}

/// A delete: whether there was something to delete.
extension Bool: KeyedResult {
    var changedSomething: Bool { self }
}

/// An update or post: nil when there was no such item or channel.
extension Optional: KeyedResult where Wrapped: KeyedResult {
    var changedSomething: Bool { self?.changedSomething ?? false }
}

extension CanvasSnapshot: KeyedResult {
    var changedSomething: Bool { true }
}

extension ChannelCreation: KeyedResult {
    var changedSomething: Bool {
        if case .created = self { true } else { false }
    }
}

extension PublishOutcome: KeyedResult {
    var changedSomething: Bool {
        if case .published = self { true } else { false }
    }
}

extension WithdrawOutcome: KeyedResult {
    var changedSomething: Bool { self == .withdrawn }
}
