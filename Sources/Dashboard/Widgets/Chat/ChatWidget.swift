import AppModel
import CanvasCore
import CanvasStyle
import CanvasUI
import FoundationEssentials
import ServerAPI
import PlainText

/// The chat micro-app: channels shared by every user, a scrollback paged from the server as the
/// user reads back, and an input line that always has the keyboard.
///
/// Keys: Enter sends (`/join NAME` switches to a channel, making it if needed); Left/Right,
/// Home/End, Backspace/Delete, Ctrl-A/E/U/W edit; Up/Down walk the sent history when the line is
/// empty; PgUp/PgDn scroll; its commands switch channel (Ctrl-N, Ctrl-B: Ctrl-P is the
/// palette's). Ctrl-E on an empty line is the canvas's (arrange mode).
public struct ChatWidget: Widget {
    public nonisolated static let descriptor = WidgetDescriptor(
        kind: .chat, name: "Chat", summary: "Channels shared with everyone on the server", version: "1.0.0", commands: commands
    ) { config, state in
        ChatWidget(config: config, state: state)
    }

    public nonisolated static let commands = [
        Command(.chatNextChannel, "Next channel", in: .widget(.chat), keys: [.ctrl("n")]),
        Command(.chatPreviousChannel, "Previous channel", in: .widget(.chat), keys: [.ctrl("b")]),
    ]

    static let historyLimit = 50
    /// Panes at least this wide list the channels in a column of their own.
    static let channelColumnMinimum = 50
    static let channelColumnWidth = 16

    private(set) var channels: [String] = [ChatLimits.generalChannel]
    private(set) var current: String
    private(set) var logs: [String: ChannelLog] = [:]
    private(set) var input = InlineInput(prompt: "> ", limit: ChatLimits.textMaxLength + 100)
    private(set) var history: [String]
    /// Where Up/Down is in the history; nil while typing a new line.
    private var historyIndex: Int?
    /// Lines scrolled up from the newest.
    private(set) var scrollBack = 0
    private(set) var focused = false
    private(set) var status: SyncStatus?
    public private(set) var isWaitingForContent = true
    private var viewport = Size.zero
    private var clock = CanvasClock()
    /// The lines on screen as last laid out, and what for: a key typed in the input line draws
    /// them again without wrapping and dating every message shown.
    private var laidOut: (key: LinesKey, lines: [ChatLines.Line])?

    public init(config: WidgetValues = [:], state: WidgetValues = [:]) {
        current = state["channel"].flatMap { ChatLimits.isChannelName($0) ? $0 : nil } ?? ChatLimits.generalChannel
        history = state["history"].map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }?
            .filter { !$0.isEmpty }.suffix(Self.historyLimit).map { $0 } ?? []
        if !channels.contains(current) { channels.append(current) }
    }

    public var title: String {
        let unread = logs.values.reduce(0) { $0 + $1.unread }
        return "Chat #\(current)" + (unread > 0 ? " (\(unread))" : "") + (status?.titleSuffix(clock: clock) ?? "")
    }

    public var subscriptions: [EventPattern] { [.prefix("chat."), .exact(SyncStatusChanged.name)] }
    public var capturesText: Bool { true }

    public var state: WidgetValues {
        ["channel": current, "history": history.suffix(Self.historyLimit).joined(separator: "\n")]
    }

    public mutating func mount(_ context: WidgetContext) throws -> WidgetEffects {
        clock = context.clock
        laidOut = nil
        return WidgetEffects(requests: [AppCommand.chat(.loadChannels), AppCommand.chat(.open(channel: current))])
    }

    public mutating func focusChanged(to focused: Bool) {
        self.focused = focused
        if focused { logs[current]?.unread = 0 }
    }

    public mutating func resize(to size: Size) {
        viewport = size
        layOut()
    }

    // MARK: Events

    public mutating func receive(_ event: CanvasEvent) throws -> WidgetEffects {
        defer { layOut() }
        switch event.payload {
        case let loaded as ChatChannelsLoaded:
            channels = Self.ordered(Set(loaded.channels.map(\.id) + [current]))
        case let created as ChatChannelCreated:
            channels = Self.ordered(Set(channels + [created.channel.id]))
        case let loaded as ChatMessagesLoaded:
            if loaded.channel == current { isWaitingForContent = false }
            var log = logs[loaded.channel] ?? ChannelLog()
            if loaded.before == nil {
                log.replaceNewest(loaded.messages, complete: loaded.complete)
            } else {
                log.merge(loaded.messages)
                log.complete = loaded.complete
                log.loadingOlder = false
            }
            logs[loaded.channel] = log
        case let received as ChatMessageReceived:
            let message = received.message
            var log = logs[message.channel] ?? ChannelLog()
            let known = log.messages.contains { $0.id == message.id }
            log.merge([message])
            if !received.mine, !known, !(focused && message.channel == current) { log.unread += 1 }
            if message.channel == current, scrollBack > 0, !known {
                scrollBack += lineCount(of: message)  // keep the lines being read in place
            }
            if scrollBack == 0 { log.trim() }
            logs[message.channel] = log
            if !channels.contains(message.channel) { channels = Self.ordered(Set(channels + [message.channel])) }
        case let synced as ChatMessageSynced:
            logs[synced.message.channel, default: ChannelLog()].replace(synced.localID, with: synced.message)
        case let changed as SyncStatusChanged where changed.app == .chat:
            status = changed.status
        default:
            break
        }
        return .none
    }

    // MARK: Keys

    public mutating func handle(_ input: InputEvent) throws -> InputResult {
        defer { layOut() }
        switch input {
        case .mouse(let mouse):
            switch mouse.action {
            case .wheelUp: return .handled(scroll(by: 3))
            case .wheelDown: return .handled(scroll(by: -3))
            case .press, .drag, .release: return .ignored
            }
        case .key(let key):
            return handleKey(key)
        case .resize, .paste:
            return .ignored  // the host types a paste in as keys
        }
    }

    private mutating func handleKey(_ key: Key) -> InputResult {
        let page = max(1, messageRows - 1)
        switch (key.code, key.modifiers) {
        case (.enter, []): return .handled(submit())
        case (.pageUp, []): return .handled(scroll(by: page))
        case (.pageDown, []): return .handled(scroll(by: -page))
        case (.up, []) where input.field.text.isEmpty || historyIndex != nil: walkHistory(by: -1)
        case (.down, []) where historyIndex != nil: walkHistory(by: 1)
        case (.char("e"), .ctrl) where input.field.text.isEmpty: return .ignored
        case (.escape, []):
            guard !input.field.text.isEmpty || input.problem != nil else { return .ignored }
            input = InlineInput(prompt: input.prompt, limit: input.field.limit)
            historyIndex = nil
        default:
            guard input.field.edit(key) else { return key.modifiers.isEmpty || key.modifiers == .shift ? .handled : .ignored }
            input.problem = nil
            historyIndex = nil
        }
        return .handled
    }

    public mutating func perform(_ command: CommandID) throws -> WidgetEffects {
        defer { layOut() }
        return switch command {
        case .chatNextChannel: switchChannel(by: 1)
        case .chatPreviousChannel: switchChannel(by: -1)
        default: .none
        }
    }

    /// Enter: a message to post, or `/join NAME`.
    private mutating func submit() -> WidgetEffects {
        let text = input.field.text
        let trimmed = text.trimmingWhitespace(andNewlines: true)
        guard !trimmed.isEmpty else { return .none }
        var effects = WidgetEffects()
        if trimmed.hasPrefix("/join") {
            let name = trimmed.dropFirst(5).trimmingWhitespace().drop { $0 == "#" }
            guard ChatLimits.isChannelName(String(name)) else {
                input.problem = "Channel names: a-z, 0-9, _ and -, up to 32, e.g. /join ops"
                return .none
            }
            if !channels.contains(String(name)) { effects.request(AppCommand.chat(.createChannel(name: String(name)))) }
            effects.append(open(String(name)))
        } else {
            guard trimmed.count <= ChatLimits.textMaxLength else {
                input.problem = "Messages have at most \(ChatLimits.textMaxLength) characters (this has \(trimmed.count))."
                return .none
            }
            effects.request(AppCommand.chat(.post(channel: current, text: text)))
            scrollBack = 0
        }
        history.append(text)
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        historyIndex = nil
        input = InlineInput(prompt: input.prompt, limit: input.field.limit)
        return effects
    }

    private mutating func walkHistory(by step: Int) {
        guard !history.isEmpty else { return }
        let next = (historyIndex ?? history.count) + step
        if next >= history.count {
            historyIndex = nil
            input = InlineInput(prompt: input.prompt, limit: input.field.limit)
            return
        }
        historyIndex = max(0, next)
        input = InlineInput(prompt: input.prompt, text: history[historyIndex!], limit: input.field.limit)
    }

    private mutating func switchChannel(by step: Int) -> WidgetEffects {
        guard let index = channels.firstIndex(of: current), channels.count > 1 else { return .none }
        return open(channels[(index + step + channels.count) % channels.count])
    }

    private mutating func open(_ channel: String) -> WidgetEffects {
        current = channel
        scrollBack = 0
        logs[channel, default: ChannelLog()].unread = 0
        if !channels.contains(channel) { channels = Self.ordered(Set(channels + [channel])) }
        return WidgetEffects(requests: [AppCommand.chat(.open(channel: channel))])
    }

    /// Scrolls back (positive) or forward; at the top of what is held, asks for the page before it.
    private mutating func scroll(by lines: Int) -> WidgetEffects {
        let total = totalLines(limit: scrollBack + lines + messageRows + 1)
        scrollBack = max(0, min(scrollBack + lines, max(0, total - messageRows)))
        var log = logs[current] ?? ChannelLog()
        var effects = WidgetEffects()
        // At the top of what is held: ask for the page before it, once.
        if scrollBack + messageRows >= total, !log.complete, !log.loadingOlder, let oldest = log.oldestServerID {
            log.loadingOlder = true
            effects.request(AppCommand.chat(.older(channel: current, before: oldest)))
        }
        if scrollBack == 0 { log.trim() }
        logs[current] = log
        return effects
    }

    // MARK: Layout

    private var showsChannelColumn: Bool { viewport.width >= Self.channelColumnMinimum }
    private var messageWidth: Int { showsChannelColumn ? viewport.width - Self.channelColumnWidth - 1 : viewport.width }
    /// Rows for messages: all but the input line, its problem line and (narrow) the channel line.
    private var messageRows: Int {
        max(1, viewport.height - 1 - (input.problem == nil ? 0 : 1) - (showsChannelColumn ? 0 : 1))
    }

    private func lineCount(of message: ChatMessage) -> Int {
        ChatLines.lines(of: message, width: messageWidth, clock: clock, pending: false).count
    }

    /// Lines of the current channel counted from the newest, stopping once past `limit`.
    private func totalLines(limit: Int) -> Int {
        var count = 0
        for message in (logs[current]?.messages ?? []).reversed() {
            count += lineCount(of: message)
            if count > limit { break }
        }
        return count
    }

    /// Everything the lines on screen depend on.
    private struct LinesKey: Equatable {
        let channel: String
        let revision: Int
        let width: Int
        let rows: Int
        let scrollBack: Int
    }

    private var linesKey: LinesKey {
        LinesKey(channel: current, revision: logs[current]?.revision ?? -1, width: messageWidth, rows: messageRows, scrollBack: scrollBack)
    }

    /// Lays out the lines on screen again when what they depend on changed (after every call
    /// that can change it); `render` lays them out itself should the key not match.
    private mutating func layOut() {
        let key = linesKey
        guard laidOut?.key != key else { return }
        laidOut = (key, visibleLines(rows: key.rows))
    }

    /// The lines on screen: only the newest messages are wrapped, as many as the rows and the
    /// scroll position need, so the cost does not grow with the history.
    private func visibleLines(rows: Int) -> [ChatLines.Line] {
        var lines: [ChatLines.Line] = []
        for message in (logs[current]?.messages ?? []).reversed() {
            lines.insert(contentsOf: ChatLines.lines(of: message, width: messageWidth, clock: clock, pending: LocalID.isLocal(message.id)), at: 0)
            if lines.count >= rows + scrollBack { break }
        }
        let end = max(0, lines.count - scrollBack)
        return Array(lines[max(0, end - rows)..<end])
    }

    // MARK: Render

    public func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        let width = buffer.size.width
        let height = buffer.size.height
        let rows = messageRows
        let messageArea: Rect
        if showsChannelColumn {
            drawChannelColumn(into: &buffer, height: height, theme: theme)
            messageArea = Rect(x: Self.channelColumnWidth + 1, y: 0, width: width - Self.channelColumnWidth - 1, height: rows)
        } else {
            drawChannelLine(into: &buffer, theme: theme)
            messageArea = Rect(x: 0, y: 1, width: width, height: rows)
        }
        let lines = laidOut.flatMap { $0.key == linesKey ? $0.lines : nil } ?? visibleLines(rows: rows)
        if lines.isEmpty {
            let text = logs[current] == nil ? "Loading #\(current)…" : "No messages in #\(current) yet. Say hello!"
            buffer.write(text, at: messageArea.origin, style: theme[.muted], clip: messageArea)
        }
        let top = messageArea.minY + rows - lines.count
        for (offset, line) in lines.enumerated() {
            let y = top + offset
            let x = buffer.write(line.prefix, at: Point(x: messageArea.minX, y: y), style: theme[.accent], clip: messageArea)
            buffer.write(line.text, at: Point(x: x, y: y), style: theme[line.pending ? .muted : .text], clip: messageArea)
        }
        if scrollBack > 0 {
            let marker = " ↑\(scrollBack) PgDn "
            buffer.write(marker, at: Point(x: messageArea.maxX - DisplayWidth.of(marker), y: messageArea.minY), style: theme[.muted])
        }
        drawInput(into: &buffer, theme: theme)
    }

    public var drawsOverItsLastDrawing: Bool { true }

    /// While what is above the input is as `drawn` drew it (typing, moving in the line), only
    /// the input's rows are drawn again.
    public func render(into buffer: inout Buffer, over drawn: any Widget, theme: Theme, focused: Bool) -> Range<Int>? {
        guard let drawn = drawn as? ChatWidget, drawn.aboveInput == aboveInput else { return nil }
        return drawInput(into: &buffer, theme: theme)
    }

    /// Everything drawn above the input line: two equal ones draw the same cells there. (The
    /// input's height is its own: in a pane of a few rows the message rows stay at one whether
    /// or not a problem line shows.)
    private struct AboveInput: Equatable {
        let lines: LinesKey
        let inputRows: Int
        let channels: [String]
        let unread: [Int]
    }

    private var aboveInput: AboveInput {
        AboveInput(lines: linesKey, inputRows: inputRows, channels: channels, unread: channels.map { logs[$0]?.unread ?? 0 })
    }

    /// The input line, and the line of its problem above it when it has one.
    private var inputRows: Int { input.problem == nil ? 1 : 2 }

    /// Draws the input line (and its problem line above it) at the bottom of the message area;
    /// returns the rows it took.
    @discardableResult
    private func drawInput(into buffer: inout Buffer, theme: Theme) -> Range<Int> {
        let height = buffer.size.height
        let x = showsChannelColumn ? Self.channelColumnWidth + 1 : 0
        var field = Buffer(size: Size(width: buffer.size.width - x, height: inputRows), filling: Cell(" ", style: Style(background: theme[.text].background)))
        input.draw(into: &field, row: inputRows - 1, theme: theme)
        buffer.draw(field, at: Point(x: x, y: height - inputRows))
        return max(0, height - inputRows)..<height
    }

    private func drawChannelColumn(into buffer: inout Buffer, height: Int, theme: Theme) {
        let column = Rect(x: 0, y: 0, width: Self.channelColumnWidth, height: height)
        for (row, channel) in channels.prefix(height).enumerated() {
            let unread = logs[channel]?.unread ?? 0
            let text = "#\(channel)" + (unread > 0 ? " (\(unread))" : "")
            let style = channel == current ? theme[.selection] : theme[unread > 0 ? .accent : .text]
            if channel == current { buffer.fill(Rect(x: 0, y: row, width: column.width, height: 1), with: Cell(" ", style: style)) }
            buffer.write(text, at: Point(x: 0, y: row), style: style, clip: column)
        }
        buffer.drawVerticalLine(at: Self.channelColumnWidth, rows: 0..<height, style: theme[.border])
    }

    private func drawChannelLine(into buffer: inout Buffer, theme: Theme) {
        var x = 0
        let row = Rect(x: 0, y: 0, width: buffer.size.width, height: 1)
        for channel in channels {
            let unread = logs[channel]?.unread ?? 0
            let text = "#\(channel)" + (unread > 0 ? "(\(unread))" : "")
            x = buffer.write(text, at: Point(x: x, y: 0), style: channel == current ? theme[.selection] : theme[.muted], clip: row)
            x += 1
        }
    }

    // MARK: Names

    /// `general` first, then by name.
    static func ordered(_ names: Set<String>) -> [String] {
        names.sorted { a, b in
            a == ChatLimits.generalChannel ? b != ChatLimits.generalChannel : b == ChatLimits.generalChannel ? false : a < b
        }
    }
}

extension CommandID {
    static let chatNextChannel: CommandID = "chat.channel.next"
    static let chatPreviousChannel: CommandID = "chat.channel.previous"
}
