import FoundationEssentials
import LogFiles
import Logging
import PrivateFiles

/// Starts logging for the executable: to a file, never to the screen.
public enum LogSetup {
    /// Sends all logging to `url` and returns the root logger. When the file cannot be opened,
    /// logging is off (the dashboard still runs) and the reason goes to standard error before
    /// the screen is taken over.
    /// `folder`: `.keep` for a file the user named, whose folder is theirs to set.
    public static func bootstrapFile(at url: URL, label: String, folder: PrivatePath.Existing = .tighten) -> Logger {
        do {
            return bootstrap(try FileLogHandler.File(url: url, folder: folder), label: label)
        } catch {
            Console.error("termcanvas: logging is off: \(error)\n")
            LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
            return Logger(label: label)
        }
    }

    /// Sends all logging to standard error, one escaped line an event: the server's
    /// `--log-file -`, for journald or a container runtime's log (no screen is looked at there).
    public static func bootstrapStandardError(label: String) -> Logger {
        bootstrap(.standardError(), label: label)
    }

    private static func bootstrap(_ file: FileLogHandler.File, label: String) -> Logger {
        let level = ProcessInfo.processInfo.environment["TERMCANVAS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = FileLogHandler(file: file, label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: label)
    }
}
