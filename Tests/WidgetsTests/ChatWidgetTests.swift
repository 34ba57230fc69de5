import AppModel
import CanvasCore
import CanvasUI
import Foundation
import ServerAPI
import Testing
@testable import Widgets

@MainActor
@Suite("Chat widget")
struct ChatWidgetTests {
    static let narrow = Size(width: 40, height: 8)
    static let wide = Size(width: 60, height: 8)

    func mounted(size: Size = narrow, log: CommandLog, focused: Bool = true) throws -> ChatWidget {
        var widget = ChatWidget()
        log.record(try widget.mount(context(bus: EventBus(now: Fixed.clock.now))))
        widget.resize(to: size)
        widget.focusChanged(to: focused)
        _ = try widget.receive(delivered(ChatChannelsLoaded(channels: [ChatChannel(id: "general", name: "general"), ChatChannel(id: "ops", name: "ops")], origin: .server)))
        return widget
    }

    static func message(_ id: Int64, _ text: String, author: String = "bob", channel: String = "general") -> ChatMessage {
        ChatMessage(id: id, channel: channel, author: author, text: text, sentAt: "2026-11-22T10:0\(id % 10):00.000Z")
    }

    func lines(_ widget: ChatWidget, size: Size = narrow) -> [String] {
        render(widget, size: size).lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func type(_ text: String, into widget: inout ChatWidget) throws {
        for character in text { try widget.press(.char(character)) }
    }

    @Test("mounting loads the channels and opens the current one; messages show newest at the bottom")
    func loading() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        #expect(log.commands == [.chat(.loadChannels), .chat(.open(channel: "general"))])
        _ = try widget.receive(delivered(ChatMessagesLoaded(channel: "general", before: nil,
                                                        messages: [Self.message(2, "second"), Self.message(1, "first")], complete: true, origin: .server)))
        let shown = lines(widget)
        #expect(shown[0] == "#general #ops")
        #expect(shown[5] == "10:01 bob: first")
        #expect(shown[6] == "10:02 bob: second")
        #expect(shown[7] == ">")
        // Wide panes list the channels in a column.
        widget.resize(to: Self.wide)
        let column = lines(widget, size: Self.wide)
        #expect(column[0].hasPrefix("#general") && column[1].hasPrefix("#ops"))
        #expect(column[7].hasSuffix("│>"))
    }

    @Test("drawn over its last drawing, typing draws the input row alone, and the pane as a whole drawing would",
          arguments: [Size(width: 40, height: 8), Size(width: 60, height: 8), Size(width: 40, height: 3), Size(width: 60, height: 2)])
    func drawnOverTheLastDrawing(size: Size) throws {
        var widget = try mounted(size: size, log: CommandLog())
        _ = try widget.receive(delivered(ChatMessagesLoaded(channel: "general", before: nil, messages: [Self.message(1, "first")],
                                                        complete: true, origin: .server)))
        var drawnWidget = widget
        var drawn = render(widget, size: size)
        var partial: Set<Int> = []
        let steps: [(inout ChatWidget) throws -> Void] = [
            { try type("hé", into: &$0) }, { _ = try $0.press(.left) }, { _ = try $0.press(Key(.backspace)) },
            { _ = try $0.receive(delivered(ChatMessageReceived(message: Self.message(2, "two"), mine: false))) },
            { try type("x", into: &$0) },
            { _ = try $0.receive(delivered(ChatMessageReceived(message: Self.message(3, "elsewhere", channel: "ops"), mine: false))) },
            { _ = try $0.press(Key(.pageUp)) }, { try type("y", into: &$0) }, { _ = try $0.press(.enter) }, { try type("z", into: &$0) },
            { _ = try $0.press(.enter) }, { try type("/join !!", into: &$0) }, { _ = try $0.press(.enter) }, { try type("w", into: &$0) },
        ]
        for (index, step) in steps.enumerated() {
            try step(&widget)
            let whole = render(widget, size: size)
            var over = drawn
            over.cursor = nil
            if let rows = widget.render(into: &over, over: drawnWidget, theme: .dark, focused: true) {
                partial.insert(index)
                #expect(over == whole, "step \(index): \(over.lines) against \(whole.lines)")
                #expect(rows.upperBound == size.height && rows.count <= 2, "step \(index): the input's rows alone")
            }
            (drawnWidget, drawn) = (widget, whole)
        }
        #expect(partial.isSuperset(of: [0, 1, 2, 4, 7, 9, 11]), "typing and moving in the line: \(partial.sorted())")
        #expect(partial.isDisjoint(with: [3, 5, 12, 13]), "a message came, a problem line came or went: \(partial.sorted())")
    }

    @Test("Enter sends; the message shows as sending until the server's copy replaces it, never twice")
    func sending() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        try type("hi all", into: &widget)
        #expect(lines(widget).last == "> hi all")
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.last == .chat(.post(channel: "general", text: "hi all")))
        #expect(lines(widget).last == ">")
        let local = ChatMessage(id: -1, channel: "general", author: "me", text: "hi all", sentAt: "2026-11-22T10:05:00.000Z")
        _ = try widget.receive(delivered(ChatMessageReceived(message: local, mine: true)))
        // The live echo may come before the sync.
        let server = ChatMessage(id: 7, channel: "general", author: "me", text: "hi all", sentAt: "2026-11-22T10:05:00.000Z")
        _ = try widget.receive(delivered(ChatMessageReceived(message: server, mine: true)))
        _ = try widget.receive(delivered(ChatMessageSynced(localID: -1, message: server)))
        #expect(lines(widget).filter { $0.contains("hi all") } == ["10:05 me: hi all"])
        #expect(widget.title == "Chat #general", "own messages are never unread")
    }

    @Test("unread while unfocused or in another channel, in the title; cleared on focus")
    func unread() throws {
        let log = CommandLog()
        var widget = try mounted(log: log, focused: false)
        _ = try widget.receive(delivered(ChatMessageReceived(message: Self.message(1, "one"), mine: false)))
        _ = try widget.receive(delivered(ChatMessageReceived(message: Self.message(2, "two", channel: "ops"), mine: false)))
        _ = try widget.receive(delivered(ChatMessageReceived(message: Self.message(2, "two", channel: "ops"), mine: false)))
        #expect(widget.title == "Chat #general (2)")
        #expect(lines(widget)[0] == "#general(1) #ops(1)")
        widget.focusChanged(to: true)
        #expect(widget.title == "Chat #general (1)")
        _ = try widget.press(.ctrl("n"), log: log)
        #expect(widget.title == "Chat #ops")
        #expect(log.commands.last == .chat(.open(channel: "ops")))
        _ = try widget.press(.ctrl("b"), log: log)
        #expect(widget.title == "Chat #general")
    }

    @Test("line editing, history on an empty line, and Ctrl-E on an empty line left to the canvas")
    func editingAndHistory() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        #expect(try widget.press(.ctrl("e"), log: log) == .ignored)
        try type("hello world", into: &widget)
        _ = try widget.press(.ctrl("w"), log: log)
        #expect(lines(widget).last == "> hello")
        _ = try widget.press(.ctrl("a"), log: log)
        try type("oh ", into: &widget)
        let endOfLine = try widget.press(.ctrl("e"), log: log)
        #expect(endOfLine == .handled)
        try type("!", into: &widget)
        #expect(lines(widget).last == "> oh hello !", "Ctrl-W leaves the space before the word")
        _ = try widget.press(Key(.backspace), log: log)
        _ = try widget.press(.left, log: log)
        _ = try widget.press(.left, log: log)
        _ = try widget.press(Key(.delete), log: log)
        #expect(lines(widget).last == "> oh hell")
        _ = try widget.press(.enter, log: log)
        try type("second", into: &widget)
        _ = try widget.press(.enter, log: log)
        _ = try widget.press(.up, log: log)
        #expect(lines(widget).last == "> second")
        _ = try widget.press(.up, log: log)
        #expect(lines(widget).last == "> oh hell")
        _ = try widget.press(.down, log: log)
        _ = try widget.press(.down, log: log)
        #expect(lines(widget).last == ">")
        _ = try widget.press(.ctrl("u"), log: log)
        #expect(widget.state["history"] == "oh hell \nsecond")
        // q and ? are text here.
        #expect(try widget.press(.char("q"), log: log) == .handled)
    }

    @Test("/join switches channel, creating it when new; bad names and too-long text are refused with the reason")
    func joinAndLimits() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        try type("/join dev-ops", into: &widget)
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.suffix(2) == [.chat(.createChannel(name: "dev-ops")), .chat(.open(channel: "dev-ops"))])
        #expect(widget.title == "Chat #dev-ops")
        try type("/join Bad!", into: &widget)
        _ = try widget.press(.enter, log: log)
        #expect(lines(widget).contains { $0.hasPrefix("Channel names:") })
        _ = try widget.press(.escape, log: log)
        try type(String(repeating: "x", count: ChatLimits.textMaxLength + 1), into: &widget)
        let count = log.commands.count
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.count == count)
        #expect(lines(widget).contains { $0.hasPrefix("Messages have at most 4000 characters") })
    }

    @Test("scrolling back asks once for the older page; the window stays bounded")
    func paging() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        let page = (51...100).reversed().map { Self.message(Int64($0), "message \($0)") }
        _ = try widget.receive(delivered(ChatMessagesLoaded(channel: "general", before: nil, messages: page, complete: false, origin: .server)))
        for _ in 0..<20 { _ = try widget.press(Key(.pageUp), log: log) }
        #expect(log.commands.filter { if case .chat(.older) = $0 { true } else { false } } == [.chat(.older(channel: "general", before: 51))])
        #expect(lines(widget)[1].contains("message 51"))
        let older = (1...50).reversed().map { Self.message(Int64($0), "message \($0)") }
        _ = try widget.receive(delivered(ChatMessagesLoaded(channel: "general", before: 51, messages: older, complete: true, origin: .server)))
        for _ in 0..<40 { _ = try widget.press(Key(.pageUp), log: log) }
        #expect(lines(widget)[1].contains("message 1"))

        // A long history arriving live keeps at most the window while reading the newest.
        for _ in 0..<40 { _ = try widget.press(Key(.pageDown), log: log) }
        for id in 101...1_200 { _ = try widget.receive(delivered(ChatMessageReceived(message: Self.message(Int64(id), "live \(id)"), mine: false))) }
        #expect(widget.logs["general"]?.messages.count == ChannelLog.window)
        #expect(lines(widget)[6].hasSuffix("live 1200"))
    }

    @Test("hostile text shows placeholders, never raw controls; wide text wraps inside the pane")
    func hostileAndWide() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        _ = try widget.receive(delivered(ChatMessagesLoaded(channel: "general", before: nil, messages: [
            Self.message(2, "漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字 🎉 ok"),
            Self.message(1, "x\u{1B}[2J\u{1B}]0;t\u{07}\r\u{8}\u{9B}1m\u{7F}\u{202E}y\nnext line"),
        ], complete: true, origin: .server)))
        let shown = render(widget, size: Self.narrow).lines
        #expect(shown.contains { $0.contains("x␛[2J␛]0;t␇␍␈�1m␡�y") })
        #expect(shown.contains { $0.hasPrefix("next line") })
        #expect(!shown.joined().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(shown.allSatisfy { DisplayWidth.of($0) == Self.narrow.width })
    }

    /// Issue 55, item 1: chat wrapped in the middle of a word.
    @Test("a message wraps at spaces; only a word wider than the pane is cut between its characters")
    func wrapsAtSpaces() {
        #expect(ChatLines.wrap("the quick brown fox jumps over", first: 12, rest: 16) == ["the quick", "brown fox jumps", "over"])
        #expect(ChatLines.wrap("a supercalifragilistic word", first: 10, rest: 10) == ["a", "supercalif", "ragilistic", "word"])
        #expect(ChatLines.wrap("漢字漢字 ok", first: 5, rest: 5) == ["漢字", "漢字", "ok"])
        #expect(ChatLines.wrap("", first: 5, rest: 5) == [""])
        #expect(ChatLines.wrap("two  spaces", first: 20, rest: 20) == ["two  spaces"])
    }
}
