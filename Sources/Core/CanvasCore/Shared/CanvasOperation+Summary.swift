extension CanvasOperation {
    /// What the operation did, in words a person reads, panes named by number: `moved pane 1 to
    /// 6,0`. (`layout history --bff`; the dashboard says the same with the panes' titles.)
    public var summary: String {
        switch self {
        case .add(let pane):
            "added pane \(pane.id.rawValue) (\(pane.app.rawValue)) at \(pane.frame.x),\(pane.frame.y) \(pane.frame.width)×\(pane.frame.height)"
        case .remove(let id, _): "removed pane \(id.rawValue)"
        case .move(let id, let origin): "moved pane \(id.rawValue) to \(origin.x),\(origin.y)"
        case .resize(let id, let size): "resized pane \(id.rawValue) to \(size.width)×\(size.height)"
        case .swap(let first, let second): "swapped panes \(first.rawValue) and \(second.rawValue)"
        case .configure(let id, _): "changed the settings of pane \(id.rawValue)"
        case .setState(let id, _): "changed what pane \(id.rawValue) shows"
        }
    }
}
