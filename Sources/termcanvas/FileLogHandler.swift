import Foundation
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
struct FileLogHandler: LogHandler {
    /// An open log file; `write(2)` with `O_APPEND` keeps concurrent lines whole.
    final class File: Sendable {
        let descriptor: Int32

        init(url: URL) throws {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw LogFileError(path: url.path, reason: String(cString: strerror(errno))) }
        }

        deinit { close(descriptor) }

        func append(_ line: String) {
            var line = line
            line.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
        }
    }

    let file: File
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = Date().ISO8601Format(.iso8601.time(includingFractionalSeconds: true))
        file.append("\(time) \(event.level) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)\n")
    }
}

