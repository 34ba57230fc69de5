import CAppProcess
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PrivateFiles
import PlainText

/// This run of the dashboard, marked on disk until it ends cleanly, so that the next start can
/// tell a run that ended unexpectedly (a Swift trap, a crash, `kill -9`, a power cut) and start
/// its layout with the micro-apps paused rather than repeat what ended it.
///
/// A mark is `runs/PID.mark` in the state directory: the process id, the layout shown, and — when
/// a fatal signal ended the run — a line the signal handler appended (`tc_crash_mark`) naming the
/// pane's app and what the main thread was doing with it (`noteCall`). A trap cannot be caught,
/// so this is written before anything can go wrong and removed by `end()` only.
@MainActor
public final class RunMark {
    /// A run that ended without removing its mark.
    public struct EndedRun: Equatable, Sendable {
        public let pid: Int32
        public let layout: String
        /// The fatal signal that ended it, when one did (not for `kill -9` or a power cut).
        public let signal: Int32?
        /// The app of the pane being handled then (a kind: an app's id or a built-in widget's).
        public let app: String?
        /// What the dashboard was doing with it: `drawing its pane`, `taking its news` …
        public let doing: String?

        /// `on signal 4 (SIGILL) while drawing its pane`, or what little is known.
        public var summary: String {
            guard let signal else { return "without a word (killed with SIGKILL, or the machine stopped)" }
            let named = Supervisor.signalNames[signal].map { " (\($0))" } ?? ""
            return "on signal \(signal)\(named)" + (doing.map { " while \($0)" } ?? "")
        }
    }

    private let file: URL
    private let descriptor: Int32
    private var layout: String

    /// Marks this run, showing `layout`; throws when the mark cannot be written (the dashboard
    /// then runs unmarked: `CrashRecovery.mark`).
    public init(directory: URL, layout: String) throws(PrivatePathError) {
        try PrivatePath.makeDirectory(directory)
        file = directory.appendingPathComponent("\(getpid()).mark")
        descriptor = open(file.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: file.path, errno: errno) }
        _ = fchmod(descriptor, 0o600)
        self.layout = layout
        write()
        tc_crash_mark(descriptor)
    }

    /// The layout shown changed: a crash from now on pauses this one's apps next time.
    public func layoutChanged(to name: String) {
        guard name != layout else { return }
        layout = name
        write()
    }

    /// What the main thread is about to do with a pane's app, for the crash line. Costs a copy of
    /// a few bytes; called before every call into a widget and every draw of a pane.
    public func noteCall(app: String, doing: StaticString) {
        app.withCString { subject in
            doing.withUTF8Buffer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { what in tc_crash_note(subject, what.baseAddress) }
            }
        }
    }

    /// The run ended cleanly: its mark goes.
    public func end() {
        tc_crash_mark(-1)
        close(descriptor)
        unlink(file.path)
    }

    private func write() {
        let text = "pid \(getpid())\nlayout \(Self.escaped(layout))\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    // MARK: Runs before this one

    /// The runs that left a mark and are no longer running (this process's own id excluded:
    /// a mark with it is an earlier process's that had the same id).
    public nonisolated static func endedRuns(in directory: URL) -> [(run: EndedRun, file: URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".mark") }.sorted().compactMap { name in
            let file = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path), data.count <= 4096,
                  let run = parse(String(decoding: data, as: UTF8.self)), !holds(file, pid: run.pid) else { return nil }
            return (run, file)
        }
    }

    /// The process ids of the dashboards running now, by their marks.
    public nonisolated static func runningDashboards(in directory: URL) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name in
            guard name.hasSuffix(".mark"), let pid = Int32(name.dropLast(5)), pid != getpid(),
                  holds(directory.appendingPathComponent(name), pid: pid) else { return nil }
            return pid
        }
    }

    /// Reads a mark; nil when it is not one.
    nonisolated static func parse(_ text: String) -> EndedRun? {
        var pid: Int32?, layout: String?, signal: Int32?, app: String?, doing: String?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard fields.count == 2 else { continue }
            switch fields[0] {
            case "pid": pid = Int32(fields[1])
            case "layout": layout = PercentEncoding.decode(fields[1])
            case "crash":
                let parts = fields[1].split(separator: " ", maxSplits: 2).map(String.init)
                signal = parts.first.flatMap { Int32($0) }
                app = parts.count > 1 ? parts[1] : nil
                doing = parts.count > 2 ? parts[2] : nil
            default: break
            }
        }
        guard let pid, pid > 0, let layout else { return nil }
        return EndedRun(pid: pid, layout: layout, signal: signal, app: app, doing: doing)
    }

    /// The dashboard that wrote `mark` runs now: process `pid` (not this one, whose mark is new)
    /// holds the mark open, as a running dashboard does. A process that merely got the id of a
    /// dead dashboard does not, so it is neither taken for that run nor sent its signals.
    private nonisolated static func holds(_ mark: URL, pid: Int32) -> Bool {
        guard pid != getpid() else { return false }
        let descriptors = "/proc/\(pid)/fd"
        let target = mark.resolvingSymlinksInPath().path
        return ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).contains { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(descriptor)")) == target
        }
    }

    /// A layout name on one line.
    private nonisolated static func escaped(_ name: String) -> String {
        PercentEncoding.encode(name)
    }
}
