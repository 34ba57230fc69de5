import CanvasCore
import CanvasStyle

/// The widget catalog (arrange mode `a`): pick a widget to add as a new pane, or, last, write a
/// new micro-app ("New micro-app…", where the dashboard can).
public struct CatalogOverlay: Overlay, Equatable {
    public private(set) var selected = 0

    public init() {}

    public func hints(_ context: OverlayContext) -> [KeyHint] { OverlayBox.listHints }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [HostAction] {
        let entries = context.catalog.descriptors
        let count = entries.count + (Self.offersNewApp(context) ? 1 : 0)
        guard count > 0 else { return [.close] }
        switch key.code {
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(count - 1, selected + 1)
        case .enter:
            guard entries.indices.contains(selected) else { return [.close, .run(.newApp)] }
            let entry = entries[selected]
            return [.close, .addPane(entry.kind, name: entry.name)]
        case .char(let c) where c.wholeNumberValue.map({ (1...count).contains($0) }) == true:
            selected = c.wholeNumberValue! - 1
        case .escape, .char("q"): return [.close]
        default: break
        }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let descriptors = context.catalog.descriptors
        var lines = descriptors.enumerated().map { index, entry in
            // The id too: what `apps` commands, layout files and the protocol document call it.
            OverlayLine("\(index + 1) \(entry.name) \(entry.version) (\(entry.kind.rawValue)) — \(entry.summary)",
                        index == selected ? .selection : .overlay)
        }
        if Self.offersNewApp(context) {
            let index = descriptors.count
            lines.append(OverlayLine("\(index + 1) \(NewAppOverlay.entryTitle) — describe it in words; a language model writes it",
                                     index == selected ? .selection : .accent))
        }
        OverlayBox.draw(title: "Add a widget", lines: lines, into: &buffer, context)
    }

    private static func offersNewApp(_ context: OverlayContext) -> Bool { !context.idle.contains(.newApp) }
}
