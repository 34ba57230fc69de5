import Logging
import Synchronization

/// Collects every log line, message and metadata, so a test can check what was written (and that
/// no secret was).
package final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    package init() {}

    package var lines: [String] { storage.withLock { $0 } }

    /// A logger at trace level writing into this capture.
    package func logger(label: String = "tests") -> Logger {
        Logger(label: label) { _ in CapturingLogHandler(capture: self) }
    }

    fileprivate func append(_ line: String) { storage.withLock { $0.append(line) } }
}

private struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        capture.append("\(event.level) \(event.message) \(all)")
    }
}
