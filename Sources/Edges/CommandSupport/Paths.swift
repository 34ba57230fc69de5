import BFFAccess
import FoundationEssentials
import PrivateFiles

/// Where TermCanvas keeps user files, following the XDG base directories.
public struct Paths: Sendable {
    public let dataDirectory: URL
    public let configDirectory: URL
    public let stateDirectory: URL

    public init(environment: [String: String]) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? UserHome.path)
        func base(_ variable: String, _ fallback: String) -> URL {
            // The spec says relative paths are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        dataDirectory = base("XDG_DATA_HOME", ".local/share").appendingPathComponent("termcanvas")
        configDirectory = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("termcanvas")
        stateDirectory = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("termcanvas")
    }

    public var logFile: URL { stateDirectory.appendingPathComponent("termcanvas.log") }
    /// The micro-app server's log, standalone or local.
    public var bffLogFile: URL { stateDirectory.appendingPathComponent("bff.log") }
    public var layoutDatabase: URL { dataDirectory.appendingPathComponent("layouts.sqlite") }
    /// The user's changes to the default keys.
    public var keyMap: URL { configDirectory.appendingPathComponent("keys.yaml") }
    /// Micro-apps the user installed, one folder each (`termcanvas apps add`).
    public var appsDirectory: URL { configDirectory.appendingPathComponent("apps") }
    /// Each micro-app's own log (its stderr and `log` lines).
    public var appLogDirectory: URL { stateDirectory.appendingPathComponent("apps") }
    /// Where each micro-app keeps its own data (`ID/`, the only folder of the user's it may write
    /// without a grant).
    public var appDataDirectory: URL { dataDirectory.appendingPathComponent("apps") }
    /// A mark per running dashboard, left behind by one that did not end cleanly (`RunMark`).
    public var runDirectory: URL { stateDirectory.appendingPathComponent("runs") }
    /// The micro-app server's own data (its database and signing secret).
    public var bffDirectory: URL { dataDirectory.appendingPathComponent("bff") }

    /// Tokens for remote BFFs stored by `termcanvas login`.
    public var credentials: CredentialStore { CredentialStore(directory: configDirectory.appendingPathComponent("credentials")) }

    /// The running executable, for finding the preset files shipped beside it.
    public static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    /// The micro-app server's executable, `termcanvas-bff`, which is built and installed beside
    /// `termcanvas`.
    public static var serverExecutable: URL {
        executable.deletingLastPathComponent().appendingPathComponent("termcanvas-bff")
    }
}
