import FoundationEssentials
import PlainText

#if canImport(Glibc)
import Glibc
#endif

/// Small files only their owner may read (tokens, credentials): written with mode 0600 from the
/// first byte and replaced atomically, so no reader ever sees a partial one and no one else ever
/// sees one at all.
public enum PrivateFile {
    /// Writes `text` to `url` through a temporary file in the same directory and a rename.
    public static func write(_ text: String, to url: URL) throws(PrivatePathError) {
        let temporary = url.path + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: temporary, errno: errno) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        let error = errno
        close(fd)
        guard written == bytes.count, synced else {
            unlink(temporary)
            throw .io(path: url.path, errno: written < 0 || !synced ? error : EIO)
        }
        guard rename(temporary, url.path) == 0 else {
            let error = errno
            unlink(temporary)
            throw .io(path: url.path, errno: error)
        }
    }

    /// The file's text without surrounding whitespace; nil when it does not exist.
    /// - Throws: `.unsafe` when others could read it (it is not used then), `.io` otherwise.
    public static func read(_ url: URL) throws(PrivatePathError) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: url.path, errno: errno)
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw .unsafe(path: url.path, reason: "the file is readable by others (expected mode 0600)")
        }
        do {
            return try String(contentsOf: url, encoding: .utf8).trimmingWhitespace(andNewlines: true)
        } catch {
            throw .io(path: url.path, errno: EIO)
        }
    }

    /// Creates the directory (0700, and its missing parents) if needed and checks it is a private
    /// directory of this user: a real directory (not a symlink), owned by this user, closed to
    /// others (a loosened mode is tightened).
    public static func prepareDirectory(_ url: URL) throws(PrivatePathError) {
        let path = url.path
        if mkdir(path, 0o700) != 0 && errno == ENOENT {
            try PrivatePath.makeDirectory(url)  // a first run: the parents (~/.config/termcanvas) may be missing
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .io(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unsafe(path: path, reason: "not a directory") }
        guard info.st_uid == getuid() else { throw .unsafe(path: path, reason: "owned by another user") }
        if info.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 { throw .io(path: path, errno: errno) }
    }
}
