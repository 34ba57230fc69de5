import FoundationEssentials
import LogFiles
import Logging

/// Starts logging for the executable: to a file, never to the screen.
public enum LogSetup {
    /// Sends all logging to `url` and returns the root logger. When the file cannot be opened,
    /// logging is off (the dashboard still runs) and the reason goes to standard error before
    /// the screen is taken over.
    public static func bootstrapFile(at url: URL, label: String) -> Logger {
        let level = ProcessInfo.processInfo.environment["TERMCANVAS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        do {
            let file = try FileLogHandler.File(url: url)
            LoggingSystem.bootstrap { label in
                var handler = FileLogHandler(file: file, label: label)
                handler.logLevel = level
                return handler
            }
        } catch {
            Console.error("termcanvas: logging is off: \(error)\n")
            LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        }
        return Logger(label: label)
    }
}
