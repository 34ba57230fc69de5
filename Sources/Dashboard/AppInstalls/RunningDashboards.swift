import CommandSupport
#if canImport(Glibc)
import Glibc
#endif
import MicroAppHost

/// The user's dashboards running now, found by their run marks.
package enum RunningDashboards {
    /// Tells each to read the apps folder again (SIGUSR1): an app installed, or installed again,
    /// is offered in its catalog, and its panes start afresh (`AppsReinstalled`).
    package static func tellAppsChanged(paths: Paths) {
        for pid in RunMark.runningDashboards(in: paths.runDirectory) { kill(pid, SIGUSR1) }
    }
}
