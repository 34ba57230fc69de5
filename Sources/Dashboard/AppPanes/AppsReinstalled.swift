import AppModel
import CanvasUI
import CommandSupport
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Logging
import MicroAppHost
import Widgets

/// How a running dashboard learns that `termcanvas apps add` installed an app, or installed one
/// again (`--replace`): the command sends SIGUSR1 to every running dashboard of the user (found
/// by their run marks), and each reads its apps folder again; an app whose manifest or files
/// changed is offered in the catalog, and its panes start afresh with their saved state.
@MainActor
package final class AppsReinstalled {
    private let source: any DispatchSourceSignal
    /// Each app's manifest digest and folder, by id: a new folder (the command swaps in a new
    /// one) or a changed manifest is an app installed again.
    private var versions: [String: String]

    /// Ignores SIGUSR1 (its default would end the process) until `start`: call before the run
    /// is marked, so that nothing that finds the mark can end the dashboard with it.
    package nonisolated static func prepare() {
        signal(SIGUSR1, SIG_IGN)
    }

    package init(paths: Paths, installed: [InstalledApp], runtime: MicroAppRuntime, mailbox: Mailbox, logger: Logger) {
        versions = Dictionary(installed.map { ($0.id, Self.version(of: $0)) }, uniquingKeysWith: { first, _ in first })
        source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let scanned = InstalledApps(paths: paths)
                for problem in scanned.problems { logger.warning("micro-app not loaded", metadata: ["problem": "\(problem)"]) }
                let changed = scanned.apps.filter { self.versions[$0.id] != Self.version(of: $0) }
                for app in scanned.apps { self.versions[app.id] = Self.version(of: app) }
                guard !changed.isEmpty else { return }
                logger.info("micro-apps installed again", metadata: ["apps": "\(changed.map(\.id))"])
                mailbox.post(.appsReinstalled(InstalledApps(apps: changed).descriptors(runtime: runtime)))
            }
        }
        source.activate()
    }

    private static func version(of app: InstalledApp) -> String {
        var info = stat()
        let folder = stat(app.folder.path, &info) == 0 ? "\(info.st_dev):\(info.st_ino)" : ""
        return app.digest + " " + folder
    }

    package func cancel() {
        source.cancel()
    }
}
