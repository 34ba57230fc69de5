import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
import Logging
import Testing

// Shared fixtures for the CanvasUI tests: a fixed clock, a silent logger, small probe widgets
// and helpers that read a buffer the way a user reads the screen.

enum Fixed {
    static let today = CalendarDate(year: 2026, month: 11, day: 22)!
    static let clock = CanvasClock.fixed(today)
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// What the probe widgets were told, shared by every copy of a widget (widgets are values).
@MainActor
final class Recorder {
    struct Received: Equatable {
        let pane: PaneID
        let input: InputEvent
    }

    var received: [Received] = []
    var sizes: [PaneID: Size] = [:]
    /// How many times each pane's widget drew itself, whole.
    var renders: [PaneID: Int] = [:]
    /// How many times each pane's widget drew again only what changed.
    var partialRenders: [PaneID: Int] = [:]

    func keys(of pane: PaneID) -> [Key] {
        received.compactMap { received in
            guard received.pane == pane, case .key(let key) = received.input else { return nil }
            return key
        }
    }
}

/// The error a failing probe throws; its description is what the pane shows.
struct ProbeFailure: Error, CustomStringConvertible {
    let description: String
}

/// A minimal widget: shows a line of text and its setting, records what it receives.
struct ProbeWidget: Widget {
    let title: String
    let capturesText: Bool
    let failsOnInput: Bool
    let recorder: Recorder
    private var colour: String
    private var pane: PaneID = 0
    /// The characters of the keys it was handed, shown on its third row.
    private var typed = ""
    /// Its content comes with its first input (as a list comes from the cache).
    private(set) var isWaitingForContent: Bool

    init(title: String, capturesText: Bool = false, failsOnInput: Bool = false, waitsForInput: Bool = false, recorder: Recorder,
         config: WidgetValues) {
        self.title = title
        self.capturesText = capturesText
        self.failsOnInput = failsOnInput
        self.isWaitingForContent = waitsForInput
        self.recorder = recorder
        self.colour = config["colour"] ?? "red"
    }

    var config: WidgetValues { ["colour": colour] }

    var settings: [WidgetSetting] {
        [WidgetSetting(key: "colour", label: "Colour", value: colour, choices: ["red", "green", "blue"])]
    }

    mutating func mount(_ context: WidgetContext) throws -> WidgetEffects {
        pane = context.pane
        return .none
    }

    mutating func resize(to size: Size) {
        recorder.sizes[pane] = size
    }

    mutating func handle(_ input: InputEvent) throws -> InputResult {
        recorder.received.append(.init(pane: pane, input: input))
        if failsOnInput { throw ProbeFailure(description: "disk on fire at sector 7 while reading the index") }
        isWaitingForContent = false
        if capturesText, case .key(let key) = input, let text = key.text { typed.append(text) }
        return .handled
    }

    mutating func cycleSetting(_ key: String) throws {
        guard key == "colour", let setting = settings.first else { return }
        colour = setting.nextValue
    }

    func render(into buffer: inout Buffer, theme: Theme, focused: Bool) {
        recorder.renders[pane, default: 0] += 1
        buffer.write("\(title) body", at: .zero, style: theme[.text])
        buffer.write("colour \(colour)", at: Point(x: 0, y: 1), style: theme[.muted])
        drawTyped(into: &buffer, theme: theme)
    }

    var drawsOverItsLastDrawing: Bool { true }

    /// While its title and colour are as drawn, only the typed row is drawn again.
    func render(into buffer: inout Buffer, over drawn: any Widget, theme: Theme, focused: Bool) -> Range<Int>? {
        guard let drawn = drawn as? ProbeWidget, drawn.title == title, drawn.colour == colour else { return nil }
        recorder.partialRenders[pane, default: 0] += 1
        drawTyped(into: &buffer, theme: theme)
        return 2..<3
    }

    private func drawTyped(into buffer: inout Buffer, theme: Theme) {
        guard buffer.size.height > 2 else { return }
        buffer.fill(Rect(x: 0, y: 2, width: buffer.size.width, height: 1), with: Cell(" ", style: Style(background: theme[.text].background)))
        buffer.write(typed, at: Point(x: 0, y: 2), style: theme[.text])
    }
}

extension AppKind {
    static let probe: AppKind = "probe"
    static let typing: AppKind = "typing"
    static let failing: AppKind = "failing"
    static let longTitle: AppKind = "longtitle"
}

extension WidgetCatalog {
    /// Probe widgets that report to `recorder`.
    @MainActor
    static func probes(_ recorder: Recorder) -> WidgetCatalog {
        WidgetCatalog([
            WidgetDescriptor(kind: .probe, name: "Probe", summary: "Shows a line", version: "1.0.0") { config, _ in
                ProbeWidget(title: "Probe", recorder: recorder, config: config)
            },
            WidgetDescriptor(kind: .typing, name: "Typing", summary: "Captures text", version: "2.1.0") { config, _ in
                ProbeWidget(title: "Typing", capturesText: true, recorder: recorder, config: config)
            },
            WidgetDescriptor(kind: .failing, name: "Failing", summary: "Throws on input", version: "0.1.0") { config, _ in
                ProbeWidget(title: "Failing", failsOnInput: true, waitsForInput: true, recorder: recorder, config: config)
            },
            WidgetDescriptor(kind: .longTitle, name: "Long", summary: "A long title", version: "1.0.0") { config, _ in
                ProbeWidget(title: "A very long widget title that goes on", recorder: recorder, config: config)
            },
        ])
    }
}

func pane(_ id: Int, _ app: AppKind, _ x: Int, _ y: Int, _ width: Int, _ height: Int,
          config: WidgetValues = [:], state: WidgetValues = [:]) -> Pane {
    Pane(id: PaneID(id), app: app, frame: Rect(x: x, y: y, width: width, height: height), config: config, state: state)
}

/// Two probes side by side, each half of the 12×12 grid.
let halves = [pane(1, .probe, 0, 0, 6, 12), pane(2, .probe, 6, 0, 6, 12)]

@MainActor
func makeHost(
    _ panes: [Pane], focused: PaneID? = nil, size: Size = Size(width: 60, height: 20),
    recorder: Recorder = Recorder(), name: String = "test", commands: CommandTable? = nil, start: HostStart = HostStart()
) throws -> CanvasHost {
    let host = try CanvasHost(
        layout: LayoutData(name: name, panes: panes, focused: focused),
        catalog: .probes(recorder), bus: EventBus(now: Fixed.clock.now), clock: Fixed.clock,
        theme: .dark, logger: Fixed.logger, size: size, commands: commands
    )
    host.start(start)
    return host
}

extension CanvasHost {
    func press(_ keys: Key...) {
        for key in keys { input(.key(key)) }
    }

    /// The screen as lines of text, the cursor marked `▏` where typing goes.
    var screen: [String] { compose().lines(markingCursor: true) }

    /// The bottom row.
    var statusBar: String { screen.last ?? "" }
}

/// Text padded with spaces to `width` columns (for whole-row expectations).
func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
}

/// Checks a buffer holds no half of a wide character without its other half, and no raw
/// control character a terminal would act on.
func expectWellFormed(_ buffer: Buffer, sourceLocation: SourceLocation = #_sourceLocation) {
    for y in 0..<buffer.size.height {
        for x in 0..<buffer.size.width {
            let cell = buffer[x, y]
            if cell.isContinuation {
                let lead = x > 0 ? buffer[x - 1, y] : nil
                #expect(lead.map { !$0.isContinuation && DisplayWidth.of($0.symbol) == 2 } == true,
                        "orphan right half at \(x),\(y)", sourceLocation: sourceLocation)
            } else if DisplayWidth.of(cell.symbol) == 2 {
                #expect(x + 1 < buffer.size.width && buffer[x + 1, y].isContinuation,
                        "wide '\(cell.symbol)' at \(x),\(y) lacks its right half", sourceLocation: sourceLocation)
            }
            let controls = cell.symbol.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            #expect(controls.isEmpty, "raw control in cell \(x),\(y)", sourceLocation: sourceLocation)
        }
    }
    for line in buffer.lines {
        #expect(DisplayWidth.of(line) == buffer.size.width, "row '\(line)' is not \(buffer.size.width) columns",
                sourceLocation: sourceLocation)
    }
}

extension CanvasHost {
    /// An input as the app loop hands it over: updated, and what it asks for performed.
    func input(_ input: InputEvent) { perform(update(.input(input))) }

    /// What earlier IO answered, as the app loop hands it over.
    func deliver(_ message: HostMessage) { perform(update(message)) }

    /// The first message, as the dashboard sends it.
    func start(_ start: HostStart = HostStart()) { perform(update(.start(start))) }
}
