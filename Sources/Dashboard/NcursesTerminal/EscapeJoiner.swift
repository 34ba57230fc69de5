import CanvasCore

/// Joins an Esc with the key read right after it into Alt+key, which is how terminals send
/// Alt with a plain key (Alt+1 arrives as Esc, `1`).
///
/// Feed it what one read of the terminal decoded, in order, then take `finish()`. An Esc that
/// is followed by nothing, by another Esc or by a mouse event stays a plain Esc.
struct EscapeJoiner {
    private var events: [InputEvent] = []
    private var pendingEscape = false

    /// Adds a decoded key.
    mutating func add(_ key: Key) {
        if pendingEscape {
            pendingEscape = false
            if key != .escape {
                var joined = key
                joined.modifiers.insert(.alt)
                events.append(.key(joined))
                return
            }
            events.append(.key(.escape))
        }
        if key == .escape {
            pendingEscape = true
        } else {
            events.append(.key(key))
        }
    }

    /// Adds an event that is not a key; a pending Esc goes before it, as it was read first.
    mutating func add(_ event: InputEvent) {
        if case .key(let key) = event { return add(key) }
        flush()
        events.append(event)
    }

    /// Emits a pending Esc as a plain Esc, e.g. before suspending.
    mutating func flush() {
        if pendingEscape {
            pendingEscape = false
            events.append(.key(.escape))
        }
    }

    /// Everything added, with a trailing Esc emitted as a plain Esc.
    mutating func finish() -> [InputEvent] {
        flush()
        defer { events = [] }
        return events
    }
}
