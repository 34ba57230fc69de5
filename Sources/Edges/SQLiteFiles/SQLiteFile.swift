import FoundationEssentials
import PrivateFiles
import SQLiteDatabase

#if canImport(Glibc)
import Glibc
#endif

/// The SQLite files the product keeps (layouts, the micro-app cache, the server's database):
/// private from their first byte, and moved aside only when SQLite says they are damaged.
///
/// Durability (`PRAGMA synchronous`, all files in WAL mode): the micro-app cache and the server's
/// database are `FULL`, so a write they acknowledged survives a power loss (the cache holds the
/// outbox of writes the user was told are saved; the server's answer lets the client drop its
/// copy). The layout store is `NORMAL`: a power loss may take back the last arrangement steps,
/// never corrupt the file, and every arrow key in arrange mode does not pay for an fsync.
public enum SQLiteFile {
    /// Makes the directory of `url` private (0700) and the database file 0600 before SQLite opens
    /// it: SQLite gives a new `-wal` and `-shm` the database file's own mode, so they are private
    /// too. Files and directories of an older version, made under a loose umask, are tightened
    /// first; a file that is not an SQLite database at all is then moved aside with its `-wal`
    /// and `-shm` (see `isForeign`) and a new one made.
    /// - Returns: the path a foreign file was kept as, if there was one.
    /// - Throws: `PrivatePathError` when the directory or file cannot be made or tightened, or
    ///   the error of moving a foreign file.
    /// - Parameter directory: what to do with the file's folder when it exists (`.keep` for a
    ///   path the user named).
    @discardableResult
    public static func prepare(_ url: URL, directory: PrivatePath.Existing = .tighten) throws -> String? {
        try PrivatePath.makeDirectory(url.deletingLastPathComponent(), existing: directory)
        for suffix in ["", "-wal", "-shm"] { try PrivatePath.tighten(url.path + suffix, to: 0o600) }
        let keptAs = isForeign(url) ? try moveAside(url) : nil
        try PrivatePath.makeFile(url, directory: directory)
        return keptAs
    }

    /// Whether the file holds something other than an SQLite database (its first bytes are not
    /// SQLite's header). Checked before SQLite opens it (by `prepare`): SQLite deletes the `-wal` and `-shm` of a
    /// file it finds is not a database when its connection closes, so they could not be kept.
    static func isForeign(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let count = read(fd, &head, head.count)
        return count > 0 && head[..<count] != Array("SQLite format 3\u{0}".utf8)[...]
    }

    /// Renames a damaged database, with its `-wal` and `-shm` (which belong to it and would pair
    /// with a new file of the same name), to `NAME.corrupt-TIME`, never over an earlier one.
    /// - Returns: the path it was kept as.
    public static func moveAside(_ url: URL) throws -> String {
        let stamp = url.path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
        var aside = stamp
        var attempt = 1
        while FileManager.default.fileExists(atPath: aside) {
            attempt += 1
            aside = stamp + "-\(attempt)"
        }
        try FileManager.default.moveItem(atPath: url.path, toPath: aside)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.moveItem(atPath: url.path + suffix, toPath: aside + suffix)
        }
        return aside
    }

    /// What went wrong, in a few words a pane title or a notice can show.
    public static func reason(_ error: any Error) -> String {
        switch error {
        case let error as PrivatePathError: error.description
        case let error as SQLiteError: error.reason
        default: "\(error)"
        }
    }
}
