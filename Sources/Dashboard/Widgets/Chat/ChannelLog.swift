import AppModel
import ServerAPI

/// The messages of one channel a chat widget holds: a window of the newest ones (older pages
/// are added as the user scrolls back, and let go again once they are back at the bottom), in id
/// order with messages still being sent last.
struct ChannelLog: Equatable {
    /// Messages kept at most while the user reads the newest ones.
    static let window = 1_000

    private(set) var messages: [ChatMessage] = [] {
        didSet { revision &+= 1 }
    }
    /// Counts the changes to `messages`: lines laid out for one revision hold until the next.
    private(set) var revision = 0
    /// True when nothing older than the first message exists.
    var complete = false
    /// An older page was asked for and has not arrived.
    var loadingOlder = false
    /// Messages from others that arrived while the pane was not focused or showed another channel.
    var unread = 0

    var oldestServerID: Int64? { messages.first { !LocalID.isLocal($0.id) }?.id }

    /// Adds or replaces messages by id.
    mutating func merge(_ incoming: [ChatMessage]) {
        // The common case, a live message newer than all: appended in place of a re-sort.
        if incoming.count == 1, let message = incoming.first, !LocalID.isLocal(message.id),
           !messages.contains(where: { LocalID.isLocal($0.id) }), messages.last.map({ $0.id < message.id }) ?? true {
            messages.append(message)
            return
        }
        var byID = Dictionary(messages.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for message in incoming { byID[message.id] = message }
        messages = byID.values.sorted(by: Self.ordered)
    }

    /// A page of the newest messages: what was held is replaced but for messages still being sent.
    mutating func replaceNewest(_ page: [ChatMessage], complete: Bool) {
        let sending = messages.filter { LocalID.isLocal($0.id) }
        let oldestInPage = page.map(\.id).min() ?? Int64.max
        // Keep what is newer than the page (arrived live meanwhile) and the unsent.
        let newer = messages.filter { !LocalID.isLocal($0.id) && $0.id > oldestInPage && !page.contains($0) }
        messages = (page + newer + sending).sorted(by: Self.ordered)
        self.complete = complete
        dedupe()
    }

    mutating func replace(_ localID: Int64, with message: ChatMessage) {
        messages.removeAll { $0.id == localID || $0.id == message.id }
        merge([message])
    }

    /// Lets go of the oldest messages beyond the window.
    mutating func trim() {
        guard messages.count > Self.window else { return }
        messages.removeFirst(messages.count - Self.window)
        complete = false
    }

    private mutating func dedupe() {
        var seen = Set<Int64>()
        messages = messages.filter { seen.insert($0.id).inserted }
    }

    static func ordered(_ a: ChatMessage, _ b: ChatMessage) -> Bool {
        let aLocal = LocalID.isLocal(a.id), bLocal = LocalID.isLocal(b.id)
        if aLocal != bLocal { return bLocal }
        return aLocal ? a.id > b.id : a.id < b.id
    }
}
