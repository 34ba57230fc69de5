import CanvasCore

/// The widget catalog (arrange mode `a`): pick a widget to add as a new pane.
public struct CatalogOverlay: Overlay, Equatable {
    public private(set) var selected = 0

    public init() {}

    public func hints(_ context: OverlayContext) -> [KeyHint] { OverlayBox.listHints }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [HostAction] {
        let entries = context.catalog.descriptors
        guard !entries.isEmpty else { return [.close] }
        switch key.code {
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(entries.count - 1, selected + 1)
        case .enter:
            let entry = entries[min(selected, entries.count - 1)]
            return [.close, .addPane(entry.kind, name: entry.name)]
        case .char(let c) where c.wholeNumberValue.map({ (1...entries.count).contains($0) }) == true:
            selected = c.wholeNumberValue! - 1
        case .escape, .char("q"): return [.close]
        default: break
        }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let lines = context.catalog.descriptors.enumerated().map { index, entry in
            OverlayLine("\(index + 1) \(entry.name) \(entry.version) — \(entry.summary)", index == selected ? .selection : .overlay)
        }
        OverlayBox.draw(title: "Add a widget", lines: lines, into: &buffer, context)
    }
}
