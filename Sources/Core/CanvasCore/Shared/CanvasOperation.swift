/// One arrangement change of a shared canvas, as a member sends it and the server orders it: the
/// `CanvasManager`'s steps, each naming the pane it changes, so it means the same on any copy of
/// the canvas that still has that pane.
///
/// A shared canvas has no focus: each person's focus, scroll and zoom stay their own, so the
/// layouts these operations apply to always have `focused == nil`.
public enum CanvasOperation: Hashable, Sendable, Codable {
    /// A new pane where its author placed it. Its id is the author's own until the server gives
    /// it the canvas's next one (`CanvasLog.submit`).
    /// Panes it lands on give up that room where each keeps a rectangle (`LayoutData.placing`):
    /// how a removal's neighbours give its room back when it is undone.
    case add(Pane)
    /// The pane goes; with `refill`, its neighbours take its room back (`LayoutData.removing`).
    /// Removals stored before neighbours did so say `refill: false` on the wire by leaving it
    /// out, and replay as they were made.
    case remove(PaneID, refill: Bool = true)
    /// The pane's origin moves; onto other panes it swaps with the one it overlaps most.
    case move(PaneID, to: Point)
    /// The pane's size changes, its origin kept; neighbours give or take room as in arrange mode.
    case resize(PaneID, to: Size)
    /// Two panes trade places.
    case swap(PaneID, PaneID)
    /// The pane's widget settings become these.
    case configure(PaneID, WidgetValues)
    /// The pane's widget state becomes this.
    case setState(PaneID, WidgetValues)

    /// The layout after this operation, or why it cannot apply there (the pane is gone, the
    /// place is taken, a neighbour is at its minimum): checked by the same rules as every
    /// arrangement step.
    public func applied(to layout: LayoutData) throws(CanvasError) -> LayoutData {
        // Raw ranges first, so hostile numbers are refused before any arithmetic on them.
        let units = 0...GridSpec.maximumDimension
        switch self {
        case .move(let id, let origin) where !units.contains(origin.x) || !units.contains(origin.y):
            throw .outOfGrid(id, Rect(x: 0, y: 0, width: 0, height: 0))
        case .resize(let id, let size) where !units.contains(size.width) || !units.contains(size.height):
            throw .belowMinimumSize(id, minimum: layout.grid.minimumPaneSize)
        case .add(let pane) where ![pane.frame.x, pane.frame.y, pane.frame.width, pane.frame.height].allSatisfy(units.contains):
            throw .outOfGrid(pane.id, pane.frame)
        default:
            break
        }
        var next = layout
        switch self {
        case .add(let pane):
            guard layout.pane(pane.id) == nil else { throw .duplicatePane(pane.id) }
            next = try layout.placing(pane)
        case .remove(let id, let refill):
            next = try layout.removing(id, refill: refill)
        case .move(let id, let origin):
            next = try Self.step(layout) { (manager: inout CanvasManager) throws(CanvasError) in try manager.updateWidgetPosition(id, to: origin) }
        case .resize(let id, let size):
            next = try Self.step(layout) { (manager: inout CanvasManager) throws(CanvasError) in try manager.updateWidgetSize(id, to: size) }
        case .swap(let first, let second):
            guard let a = layout.panes.firstIndex(where: { $0.id == first }) else { throw .unknownPane(first) }
            guard let b = layout.panes.firstIndex(where: { $0.id == second }) else { throw .unknownPane(second) }
            (next.panes[a].frame, next.panes[b].frame) = (layout.panes[b].frame, layout.panes[a].frame)
        case .configure(let id, let values):
            guard let index = layout.panes.firstIndex(where: { $0.id == id }) else { throw .unknownPane(id) }
            next.panes[index].config = values
        case .setState(let id, let values):
            guard let index = layout.panes.firstIndex(where: { $0.id == id }) else { throw .unknownPane(id) }
            next.panes[index].state = values
        }
        next.focused = nil
        try next.validate()
        return next
    }

    /// The panes this operation names.
    public var panes: [PaneID] {
        switch self {
        case .add(let pane): [pane.id]
        case .remove(let id, _), .move(let id, _), .resize(let id, _), .configure(let id, _), .setState(let id, _): [id]
        case .swap(let first, let second): [first, second]
        }
    }

    /// The same operation with pane `old` called `new` (after the server renumbered an add).
    public func renaming(_ old: PaneID, to new: PaneID) -> CanvasOperation {
        let rename = { (id: PaneID) in id == old ? new : id }
        switch self {
        case .add(var pane):
            pane.id = rename(pane.id)
            return .add(pane)
        case .remove(let id, let refill): return .remove(rename(id), refill: refill)
        case .move(let id, let origin): return .move(rename(id), to: origin)
        case .resize(let id, let size): return .resize(rename(id), to: size)
        case .swap(let first, let second): return .swap(rename(first), rename(second))
        case .configure(let id, let values): return .configure(rename(id), values)
        case .setState(let id, let values): return .setState(rename(id), values)
        }
    }

    /// One `CanvasManager` step on `layout`, its history and focus left out.
    private static func step(
        _ layout: LayoutData, _ body: (inout CanvasManager) throws(CanvasError) -> Void
    ) throws(CanvasError) -> LayoutData {
        var manager = try CanvasManager(layout: layout, historyLimit: 1)
        try body(&manager)
        return manager.layout
    }
}

/// On the wire, an operation is one flat object named by `op`:
/// `{"op": "move", "pane": 3, "to": {"x": 0, "y": 6}}`, `{"op": "resize", "pane": 3, "size": {…}}`,
/// `{"op": "swap", "pane": 1, "with": 2}`, `{"op": "remove", "pane": 3, "refill": true}`,
/// `{"op": "configure", "pane": 3, "config": {…}}`, `{"op": "setState", "pane": 3, "state": {…}}`,
/// `{"op": "add", "pane": 7, "app": "todo", "frame": {…}, "config": {…}, "state": {…}}`.
extension CanvasOperation {
    private enum Kind: String, Codable { case add, remove, move, resize, swap, configure, setState }
    private enum CodingKeys: String, CodingKey { case op, pane, app, frame, config, state, to, size, with, refill }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let pane = try container.decode(PaneID.self, forKey: .pane)
        switch try container.decode(Kind.self, forKey: .op) {
        case .add:
            self = .add(Pane(id: pane, app: try container.decode(AppKind.self, forKey: .app), frame: try container.decode(Rect.self, forKey: .frame),
                             config: container.contains(.config) ? try container.decode(WidgetValues.self, forKey: .config) : [:],
                             state: container.contains(.state) ? try container.decode(WidgetValues.self, forKey: .state) : [:]))
        case .remove: self = .remove(pane, refill: try container.decodeIfPresent(Bool.self, forKey: .refill) ?? false)
        case .move: self = .move(pane, to: try container.decode(Point.self, forKey: .to))
        case .resize: self = .resize(pane, to: try container.decode(Size.self, forKey: .size))
        case .swap: self = .swap(pane, try container.decode(PaneID.self, forKey: .with))
        case .configure: self = .configure(pane, try container.decode(WidgetValues.self, forKey: .config))
        case .setState: self = .setState(pane, try container.decode(WidgetValues.self, forKey: .state))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .add(let pane):
            try container.encode(Kind.add, forKey: .op)
            try container.encode(pane.id, forKey: .pane)
            try container.encode(pane.app, forKey: .app)
            try container.encode(pane.frame, forKey: .frame)
            try container.encode(pane.config, forKey: .config)
            try container.encode(pane.state, forKey: .state)
        case .remove(let id, let refill):
            try container.encode(Kind.remove, forKey: .op)
            try container.encode(id, forKey: .pane)
            if refill { try container.encode(true, forKey: .refill) }
        case .move(let id, let origin):
            try container.encode(Kind.move, forKey: .op)
            try container.encode(id, forKey: .pane)
            try container.encode(origin, forKey: .to)
        case .resize(let id, let size):
            try container.encode(Kind.resize, forKey: .op)
            try container.encode(id, forKey: .pane)
            try container.encode(size, forKey: .size)
        case .swap(let first, let second):
            try container.encode(Kind.swap, forKey: .op)
            try container.encode(first, forKey: .pane)
            try container.encode(second, forKey: .with)
        case .configure(let id, let values):
            try container.encode(Kind.configure, forKey: .op)
            try container.encode(id, forKey: .pane)
            try container.encode(values, forKey: .config)
        case .setState(let id, let values):
            try container.encode(Kind.setState, forKey: .op)
            try container.encode(id, forKey: .pane)
            try container.encode(values, forKey: .state)
        }
    }
}
