import FoundationEssentials
import PlainText
#if canImport(Glibc)
import Glibc
#endif

/// An app's data folder (`$TERMCANVAS_DATA`), the one folder of its own that lasts from one run to
/// the next: what `termcanvas apps data ID` shows, and empties. An app whose data folder is over
/// its `limits.disk` is stopped at each start until it is emptied.
public struct AppDataFolder: Sendable {
    public let url: URL

    /// The data folder of app `appID` under `directory` (`Paths.appDataDirectory`), as the
    /// runtime gives it; `appID` is an installed app's, or checked as one (`ManifestRules`).
    public init(appID: String, in directory: URL) {
        url = directory.appendingPathComponent(appID)
    }

    /// Whether the folder exists (as a folder: a link is not followed).
    public var exists: Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// What it holds, counted as the running app's limit counts it; at most `entriesShown`
    /// entries are counted.
    public func usage() -> FolderUsage {
        FolderWatch.usage(of: [url.path], watchingWith: -1, entriesLimit: Self.entriesShown)
    }

    /// Entries counted past the limit, to say how far over a folder is.
    public static let entriesShown = FolderWatch.entriesLimit * 10

    /// What an app may keep here: its `limits.disk`, and `FolderWatch.entriesLimit` entries.
    public static func isOver(_ usage: FolderUsage, bytesLimit: Int) -> Bool {
        usage.bytes > bytesLimit || usage.entries > FolderWatch.entriesLimit || usage.tooDeep
    }

    public static var entriesLimit: Int { FolderWatch.entriesLimit }

    /// Removes everything in the folder, the folder kept (private, as it was made). The folder
    /// is opened once and every entry removed by its descriptor, links removed and never
    /// followed, so nothing the app put there reaches outside it.
    /// - Throws: `AppDataError` naming what could not be removed.
    public func clear() throws(AppDataError) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .notOpened(url.path, errno) }
        try Self.removeContents(of: descriptor, depth: 0, path: url.path)
    }

    /// Empties the folder open at `descriptor`, and closes it.
    private static func removeContents(of descriptor: Int32, depth: Int, path: String) throws(AppDataError) {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            throw .notOpened(path, errno)
        }
        defer { closedir(directory) }
        var names: [[CChar]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.bindMemory(to: CChar.self).prefix { $0 != 0 }) + [0] }
            guard name != [0x2E, 0], name != [0x2E, 0x2E, 0] else { continue }
            names.append(name)
        }
        for name in names {
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let shown = path + "/" + String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if info.st_mode & S_IFMT == S_IFDIR {
                guard depth < FolderWatch.depthLimit * 4 else { throw .tooDeep(shown) }
                let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw .notOpened(shown, errno) }
                try removeContents(of: child, depth: depth + 1, path: shown)
                guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 else { throw .notRemoved(shown, errno) }
            } else {
                guard unlinkat(descriptor, name, 0) == 0 else { throw .notRemoved(shown, errno) }
            }
        }
    }
}

/// Why an app's data folder could not be emptied, in words that say what to do. Paths are as
/// the app named them: the caller makes them safe for a terminal.
public enum AppDataError: Error, Equatable, CustomStringConvertible {
    case notOpened(String, Int32)
    case notRemoved(String, Int32)
    case tooDeep(String)

    public var description: String {
        switch self {
        case .notOpened(let path, let code):
            "could not open \(path) (\(SystemErrorWords.describe(code))); nothing more was removed"
        case .notRemoved(let path, let code):
            "could not remove \(path) (\(SystemErrorWords.describe(code))); what was removed before it is gone"
        case .tooDeep(let path):
            "\(path) is nested too deep to empty here; remove it with rm -r"
        }
    }
}
