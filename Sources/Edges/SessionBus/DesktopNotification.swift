internal import CSessionBus

/// A desktop notification through the session bus (`org.freedesktop.Notifications`, which GNOME,
/// KDE, dunst, mako and the others serve): a reminder reaches a user who is not looking at the
/// terminal.
public enum DesktopNotification {
    /// Why a notification was not shown, in the user's words.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case noLibrary
        case noBus
        case noService
        case refused(String)

        public var description: String {
            switch self {
            case .noLibrary: "desktop notifications need libsystemd (apt install libsystemd0); reminders show on the message line"
            case .noBus: "there is no desktop session bus here (is DBUS_SESSION_BUS_ADDRESS set?); reminders show on the message line"
            case .noService: "no notification service runs on the desktop's session bus; reminders show on the message line"
            case .refused(let name): "the desktop's notification service said no (\(name)); reminders show on the message line"
            }
        }
    }

    /// The most bytes of text a notification carries.
    static let textBytes = 1_000

    /// Shows `body` under `summary`, for about ten seconds; blocks up to 5 s for the bus's answer,
    /// so call it off the main actor. `address`: a D-Bus address, else the user's session bus.
    /// - Returns: nil when it was shown, else why not.
    public static func send(summary: String, body: String, address: String? = nil) -> Problem? {
        var problem = [CChar](repeating: 0, count: 256)
        let code = tc_desktop_notify(address, "TermCanvas", markupFree(summary), markupFree(body), 10_000, &problem, problem.count)
        switch Int(code) {
        case Int(TC_NOTIFY_SENT): return nil
        case Int(TC_NOTIFY_NO_LIBRARY): return .noLibrary
        case Int(TC_NOTIFY_NO_BUS): return .noBus
        default:
            let name = String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return name == "org.freedesktop.DBus.Error.ServiceUnknown" ? .noService : .refused(String(name.prefix(100)))
        }
    }

    /// `text` as a notification's plain text: servers that read markup in a body (`<b>`, `&amp;`)
    /// show it as written, NUL and other control characters are blanks (a C string ends at NUL),
    /// at most `textBytes`.
    static func markupFree(_ text: String) -> String {
        var result = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String = switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): " "
            default: String(scalar)
            }
            guard bytes + piece.utf8.count <= textBytes else { break }
            bytes += piece.utf8.count
            result += piece
        }
        return result
    }
}
