import CanvasCore
import CanvasStyle
import Logging

/// Keeps the canvas's state (`HostState`) and carries out what it asks: `update` hands the state a
/// `HostMessage` and returns the `HostEffect`s it asked for, which `perform` runs. The state's
/// public properties read through the host (`host.manager`). A `Terminal` shows the frames
/// `compose` draws; tests read them as text and check the effects as values.
@MainActor @dynamicMemberLookup
public final class CanvasHost {
    public internal(set) var state: HostState
    public let bus: EventBus
    /// Where layouts and themes are kept; nil runs the canvas without persistence.
    public let library: (any LayoutLibrary)?
    /// Runs the library's reads and writes and the generator's runs; what they answer, and
    /// what others post, arrives in its mailbox.
    public let io: HostIO
    /// What the host is connected to outside the canvas.
    let ports: HostPorts

    public convenience init(
        layout: LayoutData, catalog: WidgetCatalog, bus: EventBus, clock: CanvasClock,
        theme: Theme, logger: Logger, size: Size, library: (any LayoutLibrary)? = nil, commands: CommandTable? = nil,
        ports: HostPorts = HostPorts()
    ) throws(CanvasError) {
        self.init(manager: try CanvasManager(layout: layout), catalog: catalog, bus: bus, clock: clock,
                  theme: theme, logger: logger, size: size, library: library, commands: commands, ports: ports)
    }

    /// A canvas from a manager, e.g. one restored with its undo history. Nothing is mounted
    /// until the first message, `.start`.
    public init(
        manager: CanvasManager, catalog: WidgetCatalog, bus: EventBus, clock: CanvasClock,
        theme: Theme, logger: Logger, size: Size, library: (any LayoutLibrary)?, io: HostIO = HostIO(),
        commands: CommandTable? = nil, ports: HostPorts = HostPorts()
    ) {
        state = HostState(manager: manager, catalog: catalog, commands: commands ?? CommandTable.standard(for: catalog),
                          theme: theme, size: size, bus: bus, clock: clock, logger: logger, ports: ports,
                          keepsLayouts: library != nil, mailbox: io.mailbox)
        self.bus = bus
        self.library = library
        self.io = io
        self.ports = ports
    }

    public subscript<Value>(dynamicMember property: KeyPath<HostState, Value>) -> Value {
        state[keyPath: property]
    }

    /// Handles one message: every change of state it makes, and the IO it asks for, to hand to
    /// `perform`. Listeners outside the canvas hear its events once the state is updated.
    public func update(_ message: HostMessage) -> [HostEffect] {
        bus.holdingDelivery { state.update(message) }
    }

    /// Runs effects `update` returned, each where it goes: the library's reads and writes and the
    /// generator's requests to `io`, whose answers come back as messages; widgets' requests
    /// to the sync engine; the shared canvas's to the server; an install to the installer.
    public func perform(_ effects: [HostEffect]) {
        for effect in effects {
            switch effect {
            case .read(let read): if let library { io.run(read, on: library) }
            case .write(let write): if let library { io.run(write, on: library) }
            case .generator(let request): if let generator = ports.appGenerator { io.run(request, on: generator) }
            case .widgetRequest(let request): ports.widgetRequests(request)
            case .shared(let request): ports.sharedCanvasRequests?(request)
            case .install(let offer): ports.installApp?(offer)
            case .alert(let text): ports.alert?(text)
            }
        }
    }

    /// Composes the frame for the current size: panes, status bar and any overlay.
    public func compose() -> Buffer {
        _ = state.composeFrame()
        return state.composed.buffer
    }

    /// Composes the frame, drawing again only what changed since the last one, and returns it
    /// with the rows it may differ in from the last. The frame returned shares the host's
    /// storage: let it go before the next call, or that call copies it whole.
    public func composeChanges() -> (frame: Buffer, rows: DamagedRows) {
        let rows = state.composeFrame()
        return (state.composed.buffer, rows)
    }

    /// The arrangement with every widget's current settings and state, ready to persist.
    public func currentLayout() -> LayoutData {
        state.currentLayout()
    }

    /// Where messages reach the app loop.
    public var mailbox: Mailbox { io.mailbox }
}
