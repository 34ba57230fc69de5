import FoundationEssentials
import PlainText

#if canImport(Glibc)
import Glibc
#endif

/// Directories and files only their owner may open: every directory the product creates is 0700
/// and every file it keeps data, logs or secrets in is 0600, whatever the umask. (A umask only
/// takes bits away, so what is created is then set to the exact mode.)
public enum PrivatePath {
    /// What `makeDirectory` does with the directory when it is there already.
    public enum Existing: Sendable {
        /// Takes from it what others may do: one of the product's own folders, made loose by an
        /// older version. A shared folder (others may write it, or it is sticky: `/tmp`) is never
        /// one of them, since the product makes none: it keeps its mode, as with `keep`.
        case tighten
        /// Leaves its mode alone, whatever it is: a folder the user named (a database's), which
        /// may be shared (`/tmp`, mode 1777). It must be the user's; `othersMayWrite` says
        /// whether to warn.
        case keep
    }

    /// Creates `url` and whichever of its parents are missing, each 0700; an existing `url` is
    /// tightened or kept as `existing` says. Parents that already exist are left alone: they
    /// are the user's (`~/.local/share`).
    /// - Throws: `.notOwned` when `existing` is `.keep` and the directory is another user's.
    public static func makeDirectory(_ url: URL, existing: Existing = .tighten) throws(PrivatePathError) {
        let path = url.standardizedFileURL.path
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !exists(current) {
            missing.append(current)
            current = FilePaths.parent(of: current)
        }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw .io(path: directory, errno: errno) }
            guard chmod(directory, 0o700) == 0 else { throw .io(path: directory, errno: errno) }
        }
        switch existing {
        case .tighten where !isShared(path):
            try tighten(path, to: 0o700)
        case .tighten:
            break
        case .keep:
            var info = stat()
            guard stat(path, &info) == 0 else { throw .io(path: path, errno: errno) }
            guard info.st_uid == getuid() else { throw .notOwned(path: path) }
        }
    }

    /// True when users other than the owner may create or remove files in the directory `url`.
    public static func othersMayWrite(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && info.st_mode & 0o022 != 0
    }

    /// Creates the file `url` (empty, 0600) when it is missing, in a private directory, and
    /// tightens it when it exists open to others. An existing file is not opened: one the user
    /// made read-only stays so, for the caller to find out. `directory` says what to do with
    /// its folder when that exists.
    public static func makeFile(_ url: URL, directory: Existing = .tighten) throws(PrivatePathError) {
        if exists(url.path) { return try tighten(url.path, to: 0o600) }
        try makeDirectory(url.deletingLastPathComponent(), existing: directory)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: url.path, errno: errno) }
        close(fd)
        try tighten(url.path, to: 0o600)
    }

    /// Takes from `path` the permissions `mode` does not grant, when it exists and is this
    /// user's: never adds any (a directory the user made read-only stays read-only).
    public static func tighten(_ path: String, to mode: mode_t) throws(PrivatePathError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .io(path: path, errno: errno)
        }
        let current = info.st_mode & 0o777
        guard info.st_uid == getuid(), current & ~mode != 0 else { return }
        guard chmod(path, current & mode) == 0 else { throw .io(path: path, errno: errno) }
    }

    /// A folder others may write into, or sticky (`/tmp`, 1777): the system's or the user's
    /// shared folder, which tightening would close to every other user.
    private static func isShared(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & (S_ISVTX | 0o002) != 0
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}

/// Why a private directory or file could not be made.
public struct PrivatePathError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let errno: Int32
    /// Why, when it is not the system's error.
    public let reason: String?

    public static func io(path: String, errno: Int32) -> PrivatePathError {
        PrivatePathError(path: path, errno: errno, reason: nil)
    }

    /// A folder that must be the user's is another's: nothing is made in it.
    public static func notOwned(path: String) -> PrivatePathError {
        PrivatePathError(path: path, errno: EPERM, reason: "owned by another user: choose a folder of your own")
    }

    /// A file or folder that is there but not safe to keep a secret in: `reason` says why.
    public static func unsafe(path: String, reason: String) -> PrivatePathError {
        PrivatePathError(path: path, errno: EPERM, reason: reason)
    }

    public var description: String { "\(path): \(reason ?? SystemErrorWords.describe(errno))" }
}
