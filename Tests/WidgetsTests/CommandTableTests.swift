import AppModel
import CanvasCore
import CanvasUI
import ServerAPI
import Testing
import Widgets

/// The dashboard's real command table: the canvas's commands and the built-in widgets'.
@MainActor
@Suite("The command table: defaults, dispatch and help")
struct CommandTableTests {
    static let table = CommandTable.standard(for: .builtIn)

    /// Where a command of `context` is looked up, most specific first, as the host does.
    static func lookup(_ context: CommandContext) -> [CommandContext] {
        switch context {
        case .canvas: [.canvas]
        case .normal: [.normal, .canvas]
        case .arrange: [.arrange, .canvas]
        case .widget: [context, .normal, .canvas]
        case .microApp: [.widget("any-app"), .microApp, .normal, .canvas]
        }
    }

    @Test func everyDefaultKeyResolvesToItsCommand() {
        #expect(Self.table.commands.count > 40)
        for command in Self.table.commands {
            #expect(!command.defaultKeys.isEmpty, "\(command.id) has no key")
            for key in command.defaultKeys {
                #expect(Self.table.command(for: key, in: Self.lookup(command.context))?.id == command.id, "\(key.name) → \(command.id)")
                #expect(Key(name: key.name) == key.normalized, "\(key.name) reads back")
            }
        }
    }

    @Test func noKeyRunsTwoCommandsAtOnceAndNoIDRepeats() {
        #expect(Self.table.conflicts.map { "\($0.key.name): \($0.first) \($0.second)" } == [])
        let ids = Self.table.commands.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func commandIDsAreNamespacedLikeEvents() {
        for command in Self.table.commands {
            let parts = command.id.rawValue.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0.isNumber } }, "\(command.id)")
        }
    }

    @Test func everyCommandIsInTheHelpWithItsKeys() throws {
        let host = try makeHost(size: Size(width: 200, height: 120))
        host.press(.char("?"))
        let screen = host.screen.joined(separator: "\n")
        for command in Self.table.commands {
            let keys = Self.table.keys(for: command.id).map(\.description).joined(separator: " / ")
            #expect(screen.contains(keys), "\(command.id)'s keys \(keys)")
            #expect(screen.contains(command.title), "\(command.id)")
        }
        for heading in ["Everywhere", "Normal mode", "Arrange mode (Ctrl-E)", "Todo", "Calendar", "Chat"] {
            #expect(screen.contains("┃ \(heading) "), "\(heading)")
        }
    }

    @Test func aWidgetsCommandRunsOnlyInItsOwnPane() throws {
        let bus = EventBus(now: Fixed.clock.now)
        let host = try makeHost(size: Size(width: 120, height: 40), bus: bus)
        // The calendar has the focus: t goes to today, n starts a new event there.
        host.press(.right, .char("t"))
        #expect(host.screen.contains { $0.contains("Sunday, 22 November 2026") })
        host.press(.char("n"))
        #expect(host.screen.contains { $0.contains("New on ") })
        host.press(.escape, .tab)
        // The event log has no command on n: nothing happens, and nothing fails.
        host.press(.char("n"))
        #expect(!host.screen.contains { $0.contains("New on ") || $0.contains("failed") })
    }
}

/// The canvas carries out what widgets return: their events reach the bus from their pane, their
/// requests reach the dashboard's handler.
@MainActor
@Suite("The host carries out what widgets ask for")
struct WidgetEffectsTests {
    @Test func requestsReachTheHandlerAndEventsTheBus() throws {
        var asked: [AppCommand] = []
        let bus = EventBus(now: Fixed.clock.now)
        let host = try CanvasHost(layout: defaultLayout, catalog: .builtIn, bus: bus, clock: Fixed.clock, theme: .dark,
                                  logger: Fixed.logger, size: Size(width: 120, height: 40),
                                  ports: HostPorts(widgetRequests: { asked.append($0 as! AppCommand) }))
        #expect(asked.isEmpty, "the host does no IO of its own")
        host.perform(host.update(.start(HostStart())))
        #expect(asked == [.calendar(.load(DayRange(first: "2026-11-01", last: "2026-11-30"))), .todo(.load)],
                "mounting asks for data, handed out by the start")
        host.press(Key(.pageDown))
        #expect(asked.last == .calendar(.load(DayRange(first: "2026-12-01", last: "2026-12-31"))))
        #expect(bus.log.events.last.map { "\($0.name) \($0.source.map(\.rawValue) ?? 0)" } == "calendar.date.selected 1")
        host.press(.char("n"))
        for character in "Party" { host.press(.char(character)) }
        host.press(.enter)
        guard case .calendar(.create(let event)) = asked.last else {
            Issue.record("no event created: \(asked)")
            return
        }
        #expect(event.title == "Party")
    }
}
