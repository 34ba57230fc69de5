import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PrivateFiles

/// Installs an app's folder by swapping: written beside the apps folder under a name of its own,
/// then moved in place of the app's, so a running dashboard never reads half an app; when the
/// move fails, the app installed before stays.
package enum AppSwap {
    /// Writes app `id` with `write` (into the folder it is given) and puts it in `apps`; returns
    /// where it is.
    package static func install(_ id: String, in apps: URL, write: (URL) throws -> Void) throws -> URL {
        try PrivatePath.makeDirectory(apps)
        let target = apps.appendingPathComponent(id)
        let unique = "\(getpid())-\(UUID().uuidString.prefix(8))"
        let staged = apps.appendingPathComponent(".\(id).new-\(unique)")
        let old = apps.appendingPathComponent(".\(id).old-\(unique)")
        defer { try? FileManager.default.removeItem(at: staged) }
        try write(staged)
        let replacing = FileManager.default.fileExists(atPath: target.path)
        if replacing { try FileManager.default.moveItem(at: target, to: old) }
        do {
            try FileManager.default.moveItem(at: staged, to: target)
        } catch {
            if replacing { try? FileManager.default.moveItem(at: old, to: target) }
            throw error
        }
        if replacing { try? FileManager.default.removeItem(at: old) }
        return target
    }
}
