internal import CSQLite

/// An error SQLite returned: its result code (primary and extended) and message.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code, e.g. `SQLITE_IOERR_WRITE`; `primary` is its low byte.
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(code: Int32, connection: OpaquePointer?) {
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: text)
    }

    /// A file found damaged by a check of ours (`PRAGMA quick_check`), as SQLite would say it.
    public static func damaged(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_CORRUPT, message: message) }

    /// Something else that failed, in its own words.
    public static func failed(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_ERROR, message: message) }

    public var primary: Int32 { code & 0xFF }

    public var description: String { message }

    /// SQLite said the file is damaged or not a database: the only errors after which a file may
    /// be moved aside. A full disk, an I/O error or a lock keeps the file where it is.
    public var isDamaged: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    public var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
    public var isReadOnly: Bool { primary == SQLITE_READONLY }
    public var isFull: Bool { primary == SQLITE_FULL }
    /// The file could not be opened or written (permissions, a missing folder).
    public var cannotOpen: Bool { primary == SQLITE_CANTOPEN || primary == SQLITE_PERM || primary == SQLITE_AUTH }

    /// What went wrong, in a few words a pane title or a notice can show.
    public var reason: String {
        switch primary {
        case SQLITE_FULL: "the disk is full"
        case SQLITE_IOERR: "disk I/O error"
        case SQLITE_BUSY, SQLITE_LOCKED: "the file is locked by another program"
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN, SQLITE_AUTH: "the file cannot be written"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "the file is damaged"
        default: message
        }
    }
}
