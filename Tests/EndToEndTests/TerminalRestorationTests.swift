import CanvasCore
import TestSupport
import Foundation
import Testing

/// However the program ends (a crash, a terminal that goes away, a terminal type curses does
/// not know), it never leaves the terminal in raw mode on the alternate screen, nor spins.
@Suite(.serialized)
struct TerminalRestorationTests {
    @Test(arguments: [SIGSEGV, SIGABRT, SIGILL])
    func aCrashRestoresTheTerminal(signal: Int32) async throws {
        // Without the Swift backtracer, so no crash report is awaited (the next test keeps it).
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        var environment = home.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                      environment: environment)
        try await session.waitFor("November 2026")
        #expect(try await session.format("#{alternate_on}") == "1")
        kill(try #require(await session.programPID()), signal)
        let report = try await session.waitForExit()
        #expect(report.status == 128 + signal)  // it still dies of the signal
        #expect(report.ttyRestored)
        #expect(try await session.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}") == "0 0 1")
    }

    @Test func aCrashStillReachesTheSwiftBacktracer() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        var environment = home.environment
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no"
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                      environment: environment)
        try await session.waitFor("November 2026")
        kill(try #require(await session.programPID()), SIGSEGV)
        let report = try await session.waitForExit(timeout: .seconds(60))
        #expect(report.status == 128 + SIGSEGV)
        #expect(report.ttyRestored)
        #expect(report.stderr.contains("Program crashed"), "stderr: \(report.stderr)")
        #expect(try await session.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}") == "0 0 1")
    }

    @Test func anUnknownTerminalTypeIsReportedNotFatal() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        var environment = home.environment
        environment["TERM"] = "no-such-terminal"
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                      environment: environment)
        let report = try await session.waitForExit()
        #expect(report.status == 1)
        #expect(report.stderr.contains("could not start the terminal: TERM is \"no-such-terminal\""), "stderr: \(report.stderr)")
        #expect(report.ttyRestored)
    }

    /// The terminal closes under the program while it is not the session leader, so no SIGHUP
    /// comes: it must notice the hang-up itself and exit, not spin on a tty that is always readable.
    @Test(.enabled(if: Self.hasPython)) func aClosedTerminalEndsTheProgramWithoutSpinning() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let result = try await Command.run(["python3", "-c", Self.hangUpScript, Products.termcanvas.path, home.url.path])
        let verdict = result.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(verdict == "EXITED", "python said: \(result.output)")
    }

    static let hasPython = (try? Command.runBlocking(["python3", "-c", "import pty"]).status) == 0

    /// Starts the program in a new pseudo-terminal under a session leader that ignores SIGHUP,
    /// waits for the first frame, closes the terminal and says after a second whether the
    /// program exited (`EXITED`) or how much CPU it used meanwhile (`RUNNING cpu=…`).
    static let hangUpScript = #"""
        import os, pty, signal, sys, time, fcntl, termios, struct, select
        program, home = sys.argv[1], sys.argv[2]
        pid, master = pty.fork()
        if pid == 0:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            child = os.fork()
            if child == 0:
                signal.signal(signal.SIGHUP, signal.SIG_DFL)
                os.write(1, b"PID=%d\n" % os.getpid())
                env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", HOME=home, XDG_DATA_HOME=home + "/data",
                           XDG_STATE_HOME=home + "/state", XDG_CONFIG_HOME=home + "/config", XDG_RUNTIME_DIR=home + "/run")
                os.execve(program, [program, "--date", "2026-11-22"], env)
            os.waitpid(child, 0)
            os._exit(0)
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        output, child, deadline = b"", None, time.time() + 20
        while time.time() < deadline and (child is None or b"November" not in output):
            if select.select([master], [], [], 0.2)[0]:
                try:
                    output += os.read(master, 65536)
                except OSError:
                    break
            if child is None and b"\n" in output.partition(b"PID=")[2]:
                child = int(output.partition(b"PID=")[2].split(b"\n")[0])
        if child is None or b"November" not in output:
            print("NOT-STARTED", output[-300:])
            sys.exit(0)
        def cpu_seconds():
            try:
                with open("/proc/%d/stat" % child) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                return None
            if fields[0] in ("Z", "X"):
                return None
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        os.close(master)
        before = cpu_seconds()
        time.sleep(1)
        after = cpu_seconds()
        if after is None:
            print("EXITED")
        else:
            print("RUNNING cpu=%.2f" % (after - (before or 0)))
            os.kill(child, signal.SIGKILL)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        """#
}
