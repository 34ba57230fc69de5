import FoundationEssentials
import PlainText
import PrivateFiles
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Why the log file could not be opened.
struct LogFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot write \(path): \(reason)" }
}

/// A swift-log handler that appends lines to a file, never to the screen the user is looking at.
///
/// One event is always one line: the label, the message and every metadata key and value go
/// through `LogText.escaped`, so text from clients (a user name with a newline, an escape
/// sequence) can neither start a fake line nor drive the terminal of whoever reads the log.
public struct FileLogHandler: LogHandler {
    /// An open log file; `write(2)` with `O_APPEND` keeps concurrent lines whole.
    public final class File: Sendable {
        let descriptor: Int32
        /// Whether the descriptor is this file's to close (standard error is not).
        let owned: Bool

        /// Standard error: for a server whose supervisor keeps its output (journald, a container
        /// runtime's log), where no screen is looked at.
        public static func standardError() -> File { File(descriptor: STDERR_FILENO, owned: false) }

        private init(descriptor: Int32, owned: Bool) {
            self.descriptor = descriptor
            self.owned = owned
        }

        /// Opens `url` for appending (0600), making its missing folders 0700. `folder` says what to
        /// do with a folder that exists: the product's own is tightened; one the user named keeps
        /// its mode (`/var/log` must stay readable by the services that log there).
        public init(url: URL, folder: PrivatePath.Existing = .tighten) throws {
            do {
                try PrivatePath.makeDirectory(url.deletingLastPathComponent(), existing: folder)
            } catch {
                throw LogFileError(path: error.path, reason: error.reason ?? SystemErrorWords.describe(error.errno))
            }
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            owned = true
            guard descriptor >= 0 else { throw LogFileError(path: url.path, reason: SystemErrorWords.describe(errno)) }
            // A log of an older version may be looser: logs name users and paths.
            _ = fchmod(descriptor, 0o600)
        }

        deinit { if owned { close(descriptor) } }

        func append(_ line: String) {
            var line = line
            line.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
        }
    }

    let file: File
    let label: String

    public init(file: File, label: String) {
        self.file = file
        self.label = label
    }
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }
            .map { LogText.escaped($0.key) + "=" + LogText.escaped("\($0.value)") }
            .joined(separator: " ")
        let message = LogText.escaped(event.message.description)
        file.append("\(Self.timeOfDay()) \(event.level) \(LogText.escaped(label)): \(message)\(fields.isEmpty ? "" : " " + fields)\n")
    }

    /// `HH:MM:SS.mmm` in UTC, written by hand: the server logs every request, and Foundation's
    /// ISO 8601 formatting was a measurable share of a request's time.
    static func timeOfDay() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let seconds = Int(now.tv_sec) % 86_400
        let milliseconds = Int(now.tv_nsec) / 1_000_000
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(milliseconds, 3))"
    }
}
