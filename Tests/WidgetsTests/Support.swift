import AppModel
import CalendarTime
import CanvasCore
import CanvasUI
import Foundation
import Logging
import Testing
import Widgets

// Shared fixtures for the widget tests: a fixed day, a silent logger, and helpers that mount a
// widget on a bus and read what it draws as text.

enum Fixed {
    static let today = CalendarDate(year: 2026, month: 11, day: 22)!
    static let clock = CanvasClock.fixed(today)
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
}

func date(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }
func instant(_ iso: String) -> UTCInstant { UTCInstant(iso: iso)! }

@MainActor
func context(pane: PaneID = 1, bus: EventBus) -> WidgetContext {
    WidgetContext(pane: pane, bus: bus, clock: Fixed.clock, logger: Fixed.logger)
}

/// What a widget draws into a pane inside of `size`.
@MainActor
func render(_ widget: some Widget, size: Size, focused: Bool = true) -> Buffer {
    var buffer = Buffer(size: size)
    widget.render(into: &buffer, theme: .dark, focused: focused)
    return buffer
}

/// The dates of every `calendar.date.selected` on the bus, oldest first.
@MainActor
func selectedDates(on bus: EventBus) -> [String] {
    bus.log.events.compactMap { $0.payload(as: DateSelected.self)?.date.iso }
}

/// The default layout of a first start (see `DefaultLayout` in the termcanvas target).
let defaultLayout = LayoutData(name: "default", panes: [
    Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 5, height: 12)),
    Pane(id: 2, app: .eventLog, frame: Rect(x: 5, y: 0, width: 7, height: 12)),
], focused: 1)

@MainActor
func makeHost(_ layout: LayoutData = defaultLayout, size: Size, bus: EventBus = EventBus(now: Fixed.clock.now)) throws -> CanvasHost {
    let host = try CanvasHost(layout: layout, catalog: .builtIn, bus: bus, clock: Fixed.clock, theme: .dark, logger: Fixed.logger, size: size)
    host.perform(host.update(.start(HostStart())))
    return host
}

extension Widget {
    /// A key as the canvas routes it in normal mode: a text field first, then the widget's own
    /// commands by their default keys, then the widget. What it asks for goes into `log`.
    @discardableResult
    mutating func press(_ key: Key, log: CommandLog? = nil) throws -> InputDisposition {
        if capturesText {
            let result = try handle(.key(key))
            log?.record(result.effects)
            if result.disposition == .handled { return .handled }
        }
        if let command = Self.commands.first(where: { $0.defaultKeys.contains(key) }) {
            log?.record(try perform(command.id))
            return .handled
        }
        guard !capturesText else { return .ignored }
        let result = try handle(.key(key))
        log?.record(result.effects)
        return result.disposition
    }
}

extension Widget {
    /// An input straight to the widget, what it asks for going into `log`.
    @discardableResult
    mutating func send(_ input: InputEvent, log: CommandLog? = nil) throws -> InputDisposition {
        let result = try handle(input)
        log?.record(result.effects)
        return result.disposition
    }
}

extension CanvasHost {
    func press(_ keys: Key...) {
        for key in keys { input(.key(key)) }
    }

    var screen: [String] { compose().lines }
}

func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
}

/// Collects what a widget's calls return: the commands it asks of the sync engine, and the
/// events it wants published, which it publishes on `bus` as the canvas would (from `pane`).
@MainActor
final class CommandLog {
    var commands: [AppCommand] = []
    var events: [any BusEvent] = []
    let bus: EventBus?
    let pane: PaneID

    init(bus: EventBus? = nil, pane: PaneID = 1) {
        self.bus = bus
        self.pane = pane
    }

    func record(_ effects: WidgetEffects) {
        commands += effects.requests.map { $0 as! AppCommand }
        events += effects.events
        for event in effects.events { bus?.publish(event, from: pane) }
    }
}

/// A canvas event as the bus would deliver it.
func delivered(_ payload: any BusEvent, sequence: Int = 1) -> CanvasEvent {
    CanvasEvent(sequence: sequence, source: nil, time: Date(timeIntervalSince1970: 0), payload: payload)
}

extension CanvasHost {
    /// An input as the app loop hands it over: updated, and what it asks for performed.
    func input(_ input: InputEvent) { perform(update(.input(input))) }

    /// Events from outside the canvas, as the sync engine posts them.
    func publish(_ events: any BusEvent...) { perform(update(.publish(events))) }

    /// What earlier IO answered, as the app loop hands it over.
    func deliver(_ message: HostMessage) { perform(update(message)) }
}
