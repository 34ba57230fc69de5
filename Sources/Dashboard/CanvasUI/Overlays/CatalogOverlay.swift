import CanvasCore
import CanvasStyle

/// The widget catalog (arrange mode `a`): pick a widget to add as a new pane; then the apps a
/// registry offers to install (the suggested ones first); or, last, write a new micro-app ("New
/// micro-app…", where the dashboard can).
public struct CatalogOverlay: Overlay, Equatable {
    public private(set) var selected = 0

    public init() {}

    public func hints(_ context: OverlayContext) -> [KeyHint] { OverlayBox.listHints }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        let entries = context.catalog.descriptors
        let offers = context.catalog.offers
        let count = entries.count + offers.count + (Self.offersNewApp(context) ? 1 : 0)
        guard count > 0 else { return [.close] }
        switch key.code {
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(count - 1, selected + 1)
        case .enter:
            if entries.indices.contains(selected) { return [.close, .addPane(entries[selected].kind, name: entries[selected].name)] }
            let offer = selected - entries.count
            guard offers.indices.contains(offer) else { return [.close, .run(.newApp)] }
            return [.close, .installApp(offers[offer])]
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
        for (offset, offer) in context.catalog.offers.enumerated() {
            let index = descriptors.count + offset
            // A heading before the suggested ones, and before the rest a registry offers.
            if offset == 0 || (offer.suggested == nil && context.catalog.offers[offset - 1].suggested != nil) {
                lines.append(OverlayLine(offer.suggested != nil ? "Suggested for you (Enter installs it, then adds it)"
                                                                : "From the registry (Enter installs it, then adds it)", .accent))
            }
            let why = offer.suggested.map { "\($0) · " } ?? ""
            lines.append(OverlayLine("\(index + 1) \(offer.name) \(offer.version) (\(offer.shownID)) — \(why)\(offer.summary)",
                                     index == selected ? .selection : .overlay))
        }
        if Self.offersNewApp(context) {
            let index = descriptors.count + context.catalog.offers.count
            lines.append(OverlayLine("\(index + 1) \(NewAppOverlay.entryTitle) — describe it in words; a language model writes it",
                                     index == selected ? .selection : .accent))
        }
        OverlayBox.draw(title: "Add a widget", lines: lines, into: &buffer, context)
    }

    private static func offersNewApp(_ context: OverlayContext) -> Bool { !context.idle.contains(.newApp) }
}
