import AppModel
import CanvasUI
import FoundationEssentials

extension SyncStatus {
    /// What a pane title adds for this status: nothing when all is well or the dashboard has only
    /// just started; `connecting` when the server takes a while to answer at first; `offline,
    /// synced 14:02`, the server's trouble, writes not yet sent, and why nothing is kept offline
    /// when the cache file could not be used.
    func titleSuffix(clock: CanvasClock) -> String {
        var parts: [String] = []
        switch connection {
        case .online, .starting: break
        case .connecting: parts.append("connecting")
        case .offline:
            parts.append("offline" + (lastSynced.map { ", synced \(clock.timeOfDay($0).prefix(5))" } ?? ""))
        case .failing(let reason):
            parts.append(reason)
        }
        if pendingWrites > 0 { parts.append("\(pendingWrites) unsent") }
        if let notKeptOffline { parts.append("not kept offline: \(notKeptOffline)") }
        return parts.isEmpty ? "" : " · " + parts.joined(separator: " · ")
    }
}
