/// The language a generated micro-app is written in: one script, run by an interpreter every
/// machine has.
public enum ScriptLanguage: String, Sendable, CaseIterable {
    case python, sh

    /// The script's file name in the app's folder.
    public var scriptName: String {
        switch self {
        case .python: "app.py"
        case .sh: "app.sh"
        }
    }

    /// The manifest's `exec`.
    public var exec: [String] {
        switch self {
        case .python: ["python3", scriptName]
        case .sh: ["sh", scriptName]
        }
    }

    /// Interpreter options allowed between the interpreter and the script: none that runs code of
    /// its own (`python3 -c`) or reads another file.
    var allowedOptions: Set<String> {
        switch self {
        case .python: ["-u", "-B"]
        case .sh: ["-e", "-u"]
        }
    }

    /// The shipped app shown to the model as an example (`apps/ID`), and its script.
    var example: (app: String, script: String) {
        switch self {
        case .python: ("sysmon", "sysmon.py")
        case .sh: ("pomodoro", "pomodoro.sh")
        }
    }

    var name: String {
        switch self {
        case .python: "Python 3 (the standard library only)"
        case .sh: "POSIX shell (sh, with the tools of a base system)"
        }
    }
}
