import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PrivateFiles

/// When opening the layout database reads all of it to look for damage (`PRAGMA quick_check`,
/// whose cost grows with the file, not with what a start needs): when no check is known, after a
/// run that did not end cleanly (a crash, `kill -9`, a power cut: what damages a file), once a
/// week, and after damage was met in use. A mark beside the file (`NAME-checked`, private, empty)
/// keeps when the last check found none; damage met or found removes it.
public struct IntegrityCheck: Sendable {
    /// The longest a database goes unchecked.
    public static let interval: Double = 7 * 86_400

    /// The mark beside the database at `database`.
    let mark: URL

    public init(database: URL) {
        mark = URL(fileURLWithPath: database.path + "-checked")
    }

    /// Whether a check is due: the mark is missing, older than `interval` or from the future (a
    /// clock set back), or the run before did not end cleanly.
    public func isDue(afterUncleanEnd: Bool, now: Double = Date().timeIntervalSince1970) -> Bool {
        guard !afterUncleanEnd, let checked = lastCheck() else { return true }
        return !(checked...(checked + Self.interval)).contains(now)
    }

    /// When the last check found no damage, by the mark's time; nil without a mark.
    func lastCheck() -> Double? {
        var info = stat()
        guard lstat(mark.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Double(info.st_mtim.tv_sec)
    }

    /// The check found no damage: the mark says when. A mark that cannot be written only means
    /// the next start checks again.
    func passed() {
        guard (try? PrivatePath.makeFile(mark)) != nil else { return }
        utimensat(AT_FDCWD, mark.path, nil, 0)
    }

    /// Damage was met: the next start checks.
    func damaged() {
        unlink(mark.path)
    }
}
