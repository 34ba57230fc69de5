import AppModel
import FoundationEssentials
import Logging
import MicroAppHost

/// A start after a run that did not end cleanly: that run's layout comes up with its micro-apps
/// paused (one of them may be what ended it, and a trap cannot be caught), the user is told
/// once, and the app whose pane was being handled when it ended finds it in its log.
@MainActor
package enum CrashRecovery {
    /// What a paused pane says after its app's name.
    package static let pausedReason = "paused after the last run ended unexpectedly · r starts it"

    /// The last unclean end of a run of `layout`, if any, after telling the logs about it; its
    /// mark goes, so the next start is normal. Other layouts' marks stay for their next start.
    package static func previousRun(of layout: String, runs directory: URL, runtime: MicroAppRuntime, installed: [InstalledApp],
                            logger: Logger) -> RunMark.EndedRun? {
        let ended = RunMark.endedRuns(in: directory).filter { $0.run.layout == layout }
        for (_, file) in ended { try? FileManager.default.removeItem(at: file) }
        // The one with a crash line says most; else any.
        guard let run = ended.map(\.run).first(where: { $0.signal != nil }) ?? ended.first?.run else { return nil }
        logger.error("the last run ended unexpectedly; its micro-apps start paused",
                     metadata: ["layout": "\(layout)", "pid": "\(run.pid)", "how": "\(run.summary)", "app": "\(run.app ?? "-")"])
        if let id = run.app, let app = installed.first(where: { $0.id == id }) {
            runtime.log("the dashboard's last run ended unexpectedly \(run.summary) (this app's); its panes start paused (r starts one)",
                        forApp: id, limit: app.manifest.limits.logBytes)
        }
        return run
    }

    /// Marks this run; nil (logged) when the mark cannot be written: the dashboard still runs.
    package static func mark(_ directory: URL, layout: String, logger: Logger) -> RunMark? {
        do {
            return try RunMark(directory: directory, layout: layout)
        } catch {
            logger.error("could not mark this run: a crash will not pause its micro-apps next time", metadata: ["error": "\(error)"])
            return nil
        }
    }
}

package extension RunMark.EndedRun {
    /// The status bar's line about it, once.
    var notice: String {
        let during = app.map { " in \($0)'s pane" } ?? ""
        return "The last run ended unexpectedly\(during): micro-apps are paused · r in a pane starts it · termcanvas apps log ID says more"
    }
}
