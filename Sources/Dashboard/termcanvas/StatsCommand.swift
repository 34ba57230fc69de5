import ArgumentParser
import CanvasCore
import FoundationEssentials
import LayoutStore
import PlainText

/// `termcanvas stats`: how long the dashboard's last starts took to show their content.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print how long the last starts took to show the canvas and each pane.",
        discussion: """
            canvasLoadTime: from the process's start to the first frame on the screen in which every pane shows its content.
            microAppLoadTime: from a pane's mount to the first frame that shows its content (a list from the cache, a micro-app's first view).
            The last start's figures, then the median of the starts kept (the last \(LayoutStore.keptLoadTimes)). The log has them too.
            """
    )

    func run() async throws {
        let starts = try LayoutCommand.library().store.loadTimes()
        print(Self.lines(starts).joined(separator: "\n"))
    }

    static func lines(_ starts: [StoredLoadTimes]) -> [String] {
        guard let last = starts.first else { return ["No start measured yet: run the dashboard once."] }
        let all = starts.map(\.times)
        var lines = ["canvasLoadTime    \(format(last.times.canvasLoadTime))  (median \(format(median(all.map(\.canvasLoadTime)))) of \(all.count) starts)"
                     + "  layout \(last.times.layout), \(last.recordedAt.formatted(.iso8601))"]
        lines.append("microAppLoadTime")
        let width = last.times.panes.map(\.app.rawValue.count).max() ?? 0
        for pane in last.times.panes {
            let earlier = all.flatMap(\.panes).filter { $0.app == pane.app }.map(\.microAppLoadTime)
            lines.append("  \(pane.app.rawValue.padded(toLength: width))  \(format(pane.microAppLoadTime))"
                         + "  (median \(format(median(earlier)))  of \(earlier.count))")
        }
        return lines
    }

    private static func median(_ times: [Duration]) -> Duration {
        let sorted = times.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    private static func format(_ time: Duration) -> String {
        let text = "\((time.fractionalMilliseconds * 10).rounded() / 10)"  // one decimal, right-aligned in 7
        return String(repeating: " ", count: max(0, 7 - text.count)) + text + " ms"
    }
}
