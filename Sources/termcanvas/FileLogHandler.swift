import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A swift-log handler that appends lines to a file, never to the screen the user is looking at.
struct FileLogHandler: LogHandler {
    /// An open log file; `write(2)` with `O_APPEND` keeps concurrent lines whole.
    final class File: Sendable {
        let descriptor: Int32

        init(url: URL) throws {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
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

enum LogSetup {
    /// Sends all logging to `url` and returns the root logger.
    static func bootstrapFile(at url: URL, label: String) throws -> Logger {
        let file = try FileLogHandler.File(url: url)
        let level = ProcessInfo.processInfo.environment["TERMCANVAS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = FileLogHandler(file: file, label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: label)
    }
}
