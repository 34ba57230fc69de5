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

    /// Only the lines the box shows are made: a registry of 500 packages is not 500 lines a frame.
    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let list = CatalogList(context, selected: selected)
        OverlayBox.draw(title: "Add a widget", count: list.count, selected: list.row(ofEntry: selected), into: &buffer, context,
                        line: list.line(at:))
    }

    nonisolated fileprivate static func offersNewApp(_ context: OverlayContext) -> Bool { !context.idle.contains(.newApp) }
}

/// The catalog's rows in order: the widgets, a heading and the suggested offers, a heading and
/// the rest of the registry's offers, then "New micro-app…" where it is offered. A row is made
/// when it is asked for.
struct CatalogList {
    let descriptors: [WidgetDescriptor]
    let offers: [CatalogOffer]
    let newApp: Bool
    let selected: Int
    /// Offers the suggestions put first.
    let suggestedCount: Int

    init(_ context: OverlayContext, selected: Int) {
        descriptors = context.catalog.descriptors
        offers = context.catalog.offers
        newApp = CatalogOverlay.offersNewApp(context)
        self.selected = selected
        suggestedCount = offers.prefix { $0.suggested != nil }.count
    }

    /// A heading before the suggested offers, and one before the rest, when there are any.
    private var headingBeforeSuggested: Bool { suggestedCount > 0 }
    private var headingBeforeRest: Bool { offers.count > suggestedCount }
    private var headings: Int { (headingBeforeSuggested ? 1 : 0) + (headingBeforeRest ? 1 : 0) }

    var count: Int { descriptors.count + headings + offers.count + (newApp ? 1 : 0) }

    /// The row of the entry numbered `entry` from 0 (widgets, offers, "New micro-app…").
    func row(ofEntry entry: Int) -> Int {
        guard entry >= descriptors.count else { return entry }
        let offer = entry - descriptors.count
        guard offer < offers.count else { return count - 1 }
        return descriptors.count + offer + (headingBeforeSuggested ? 1 : 0) + (headingBeforeRest && offer >= suggestedCount ? 1 : 0)
    }

    func line(at row: Int) -> OverlayLine {
        if row < descriptors.count {
            let entry = descriptors[row]
            // The id too: what `apps` commands, layout files and the protocol document call it.
            return OverlayLine("\(row + 1) \(entry.name) \(entry.version) (\(entry.kind.rawValue)) — \(entry.summary)",
                               row == selected ? .selection : .overlay)
        }
        var rest = row - descriptors.count
        if headingBeforeSuggested {
            if rest == 0 { return OverlayLine("Suggested for you (Enter installs it, then adds it)", .accent) }
            rest -= 1
            if rest < suggestedCount { return offerLine(rest) }
            rest -= suggestedCount
        }
        if headingBeforeRest {
            if rest == 0 { return OverlayLine("From the registry (Enter installs it, then adds it)", .accent) }
            rest -= 1
            if rest < offers.count - suggestedCount { return offerLine(suggestedCount + rest) }
        }
        let index = descriptors.count + offers.count
        return OverlayLine("\(index + 1) \(NewAppOverlay.entryTitle) — describe it in words; a language model writes it",
                           index == selected ? .selection : .accent)
    }

    private func offerLine(_ offset: Int) -> OverlayLine {
        let offer = offers[offset]
        let index = descriptors.count + offset
        let why = offer.suggested.map { "\($0) · " } ?? ""
        return OverlayLine("\(index + 1) \(offer.name) \(offer.version) (\(offer.shownID)) — \(why)\(offer.summary)",
                           index == selected ? .selection : .overlay)
    }
}
