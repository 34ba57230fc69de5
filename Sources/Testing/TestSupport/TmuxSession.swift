import CanvasCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Drives a program in a real pseudo-terminal through tmux: type keys, resize, read the screen.
///
/// Each session has its own tmux server (a private socket), so tests run side by side. The
/// program runs under a small shell wrapper that records the tty settings before and after
/// and the exit status, so a test can check the terminal was restored.
public final class TmuxSession: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let socket: String
    private let workDirectory: URL
    /// The shell running in the pane; it leads the process group of everything the test started.
    private let panePID: pid_t
    /// The program's process name as `pgrep` sees it (at most 15 characters on Linux).
    private let programName: String
    /// The session's `XDG_RUNTIME_DIR`, where a dashboard starts its local BFF.
    private let runtimeDirectory: String?
    /// The dashboard's log under the session's `XDG_STATE_HOME`: its tail goes with a timeout.
    private let logFile: String?

    /// Starts `command` (an executable and its arguments) in a terminal of `size`.
    public init(_ command: [String], size: Size, environment: [String: String] = [:]) async throws {
        socket = "tc-test-\(UUID().uuidString.prefix(8))"
        programName = String(URL(fileURLWithPath: command[0]).lastPathComponent.prefix(15))
        workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let quoted = command.map(Self.shellQuote).joined(separator: " ")
        let dir = Self.shellQuote(workDirectory.path)
        let script = "stty -g > \(dir)/stty.before; \(quoted) 2> \(dir)/stderr; echo $? > \(dir)/status; "
            + "stty -g > \(dir)/stty.after; printf 'PROGRAM-EXITED'; sleep 600"
        runtimeDirectory = environment["XDG_RUNTIME_DIR"]
        logFile = environment["XDG_STATE_HOME"].map { $0 + "/termcanvas/termcanvas.log" }
        var env = ["TERM": "tmux-256color", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        let assignments = env.map { "\($0.key)=\(Self.shellQuote($0.value))" }.joined(separator: " ")
        // The new server must not inherit a pipe: it outlives the client and would hold it open.
        try await Self.tmux(socket: socket, capturingOutput: false,
                      ["-f", "/dev/null", "new-session", "-d", "-x", "\(size.width)", "-y", "\(size.height)",
                       "env \(assignments) sh -c \(Self.shellQuote(script))"])
        do {
            try await Self.tmux(socket: socket, ["set-option", "-g", "window-size", "manual"])
            panePID = pid_t(try await Self.tmux(socket: socket, ["display-message", "-p", "-t", "0", "#{pane_pid}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        } catch {
            _ = try? await Self.tmux(socket: socket, ["kill-server"])
            throw error
        }
    }

    deinit {
        if panePID > 0 { kill(-panePID, SIGKILL) }
        if let runtimeDirectory { LocalServerProcess.stop(runtimeDirectory: runtimeDirectory) }
        _ = try? Command.runBlocking(["tmux", "-L", socket, "kill-server"])
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// The process id of the program under test while it runs: the pane shell's child of that name.
    ///
    /// Unlike a search by command line, this never finds a program that another test started.
    public func programPID() async -> pid_t? {
        guard panePID > 0,
              let result = try? await Command.run(["pgrep", "-n", "-x", "-P", "\(panePID)", programName]), result.status == 0
        else { return nil }
        return pid_t(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Expands a tmux format for the pane, e.g. `#{alternate_on}` (1 while the alternate screen
    /// is on), `#{mouse_any_flag}` (1 while mouse reporting is on) or `#{cursor_flag}`.
    public func format(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends keys in tmux `send-keys` syntax: `Tab`, `C-e`, `S-Right`, `M-1`, `Escape`, or literal text.
    public func send(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", "0"] + keys)
    }

    /// Presses Esc `times` times, each alone: the pause between presses is longer than the
    /// dashboard's escape delay (25 ms), within which Esc and what follows are read as one key
    /// (Alt and a key). A pause the terminal's protocol asks for, not a wait for an event.
    public func pressEscape(times: Int) async throws {
        for press in 0..<times {
            if press > 0 { try await Task.sleep(for: .milliseconds(100)) }
            try await send("Escape")
        }
    }

    /// Sends text literally, byte for byte (escape sequences included).
    public func sendLiteral(_ text: String) async throws {
        try await tmux(["send-keys", "-t", "0", "-l", "--", text])
    }

    /// Pastes `text` as a terminal does, between bracketed paste's markers when the program
    /// asked for them (tmux's `paste-buffer -p`).
    public func paste(_ text: String) async throws {
        try await tmux(["set-buffer", "--", text])
        try await tmux(["paste-buffer", "-p", "-d", "-t", "0"])
    }

    /// What a mouse report says happened.
    public enum MouseReport: Int, Sendable {
        case press = 0
        case release = 3
        /// Motion with the left button held.
        case drag = 32
        case wheelUp = 64
        case wheelDown = 65
    }

    /// Sends a mouse report at a cell (0-based), as an xterm sends it in X10 encoding, which
    /// tmux-256color's kmous (ESC [ M) announces: button, column and row, each + 32.
    ///
    /// Only cells below column and row 95, where the report is ASCII: it then goes in one write,
    /// so the terminal reads it whole even on a loaded machine. (Sent byte by byte, a reader that
    /// waits out its Esc delay between them would see an Esc key.)
    public func mouse(_ report: MouseReport, x: Int, y: Int) async throws {
        precondition((0..<95).contains(x) && (0..<95).contains(y), "X10 mouse reports in one write reach column and row 94")
        let bytes = [0x1B, 0x5B, 0x4D, 32 + report.rawValue, 33 + x, 33 + y].map(UInt8.init)
        try await sendLiteral(String(decoding: bytes, as: UTF8.self))
    }

    /// Resizes the terminal; the program gets SIGWINCH.
    public func resize(to size: Size) async throws {
        try await tmux(["resize-window", "-t", "0", "-x", "\(size.width)", "-y", "\(size.height)"])
    }

    /// The visible screen, one string per row.
    public func screen() async throws -> [String] {
        var rows = try await tmux(["capture-pane", "-p", "-t", "0"]).components(separatedBy: "\n")
        if rows.last == "" { rows.removeLast() }  // the newline ending the last row
        return rows
    }

    /// Waits until the screen satisfies `condition`; returns that screen or throws with the last one.
    @discardableResult
    public func waitForScreen(
        timeout: Duration = .seconds(10), _ what: String, _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        var last: [String] = []
        return try await eventually("\(what); screen was:\n" + last.joined(separator: "\n") + logTail(), within: timeout, every: .milliseconds(30)) {
            last = try await screen()
            return condition(last) ? last : nil
        }
    }

    /// Waits until the screen has not changed for `quiet` (what arrives late — a live stream's
    /// backlog — has arrived); returns that screen or throws with the last one.
    @discardableResult
    public func waitForQuietScreen(
        quiet: Duration = .seconds(1), timeout: Duration = .seconds(30), _ what: String
    ) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var last = try await screen()
        var unchangedSince = ContinuousClock.now
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            let now = try await screen()
            if now != last {
                last = now
                unchangedSince = ContinuousClock.now
            } else if ContinuousClock.now - unchangedSince >= quiet {
                return now
            }
        }
        throw Failure(description: "timed out waiting for \(what) to stay still; screen was:\n" + last.joined(separator: "\n") + logTail())
    }

    /// The last lines of the program's log, to tell a key never read from a program stuck on it.
    private func logTail(lines: Int = 30) -> String {
        guard let logFile, let log = try? String(contentsOfFile: logFile, encoding: .utf8) else { return "" }
        return "\nthe end of \(logFile):\n" + log.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Waits until some row contains `text`.
    @discardableResult
    public func waitFor(_ text: String, timeout: Duration = .seconds(10)) async throws -> [String] {
        try await waitForScreen(timeout: timeout, "'\(text)'") { $0.contains { $0.contains(text) } }
    }

    /// Waits until some row contains `text` with the terminal's cursor shown right after it: where
    /// a text field's typing goes (the cursor is not in the screen's text). Counts one column a
    /// character, so `text` and what is left of it on its row must have no wide character.
    public func waitForCursor(after text: String, timeout: Duration = .seconds(10)) async throws {
        try await eventually("the cursor after '\(text)'", within: timeout, every: .milliseconds(30)) {
            let screen = try await screen()
            guard let y = screen.firstIndex(where: { $0.contains(text) }), let range = screen[y].range(of: text) else { return false }
            let x = screen[y][..<range.upperBound].count
            return try await format("#{cursor_flag} #{cursor_x} #{cursor_y}") == "1 \(x) \(y)"
        }
    }

    /// Waits until the program's log (under the session's `XDG_STATE_HOME`) has a line containing
    /// `text` and this session's program's `pid=` (programs of one home share the file).
    public func waitForLog(_ text: String, timeout: Duration = .seconds(10)) async throws {
        let pid = try await eventually("the program's pid", within: timeout, every: .milliseconds(30)) { await programPID() }
        try await waitForLogLines(timeout: timeout, "'\(text)'") { $0.contains { $0.contains(text) && $0.contains("pid=\(pid)") } }
    }

    /// Waits until the lines of the session's log (every program of its home) satisfy `condition`.
    public func waitForLogLines(
        timeout: Duration = .seconds(10), _ what: String, _ condition: ([Substring]) -> Bool
    ) async throws {
        try await eventually("\(what) in the log" + logTail(), within: timeout, every: .milliseconds(30)) {
            guard let logFile, let log = try? String(contentsOfFile: logFile, encoding: .utf8) else { return false }
            return condition(log.split(separator: "\n"))
        }
    }

    /// The program's exit status once it has exited, and whether the tty settings were restored.
    public func exitReport() throws -> (status: Int32, ttyRestored: Bool, stderr: String)? {
        let status = workDirectory.appendingPathComponent("status")
        guard let text = try? String(contentsOf: status, encoding: .utf8), let code = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        let before = try? String(contentsOf: workDirectory.appendingPathComponent("stty.before"), encoding: .utf8)
        let after = try? String(contentsOf: workDirectory.appendingPathComponent("stty.after"), encoding: .utf8)
        let stderr = (try? String(contentsOf: workDirectory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        return (code, before != nil && before == after, stderr)
    }

    /// Waits for the program to exit and returns its report.
    public func waitForExit(timeout: Duration = .seconds(10)) async throws -> (status: Int32, ttyRestored: Bool, stderr: String) {
        try await waitFor("PROGRAM-EXITED", timeout: timeout)
        return try await eventually("the exit status recorded", within: .seconds(2)) { try exitReport() }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        try await Self.tmux(socket: socket, arguments)
    }

    @discardableResult
    private static func tmux(socket: String, capturingOutput: Bool = true, _ arguments: [String]) async throws -> String {
        let result = try await Command.run(["tmux", "-L", socket] + arguments, capturingOutput: capturingOutput)
        guard result.status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
        return result.output
    }

    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
