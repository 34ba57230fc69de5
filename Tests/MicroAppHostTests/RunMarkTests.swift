import Foundation
@testable import MicroAppHost
import Testing
import TestSupport

@Suite("Run marks: a run ended is told from one that runs, whatever has its id now")
struct RunMarkTests {
    /// A process that sleeps until the test kills it: holding a mark of its own in `directory` it
    /// writes as a dashboard does, or not. (It once slept 30 s, which a test starved of its thread
    /// on a busy machine outlived: the mark was no longer held when it was looked at.) Killed with
    /// SIGKILL, which nothing can block or ignore.
    static func process(markingIn directory: URL?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = directory.map { directory in
            ["python3", "-c", "import os, time; f = open('\(directory.path)/%d.mark' % os.getpid(), 'w'); "
                + "f.write('pid %d\\nlayout open\\n' % os.getpid()); f.flush(); time.sleep(600)"]
        } ?? ["sleep", "600"]
        try process.run()
        return process
    }

    @Test func onlyAProcessHoldingItsMarkIsARunningDashboard() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-runs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A live process that merely has a dead dashboard's id: that run ended.
        let stranger = try Self.process(markingIn: nil)
        defer { kill(stranger.processIdentifier, SIGKILL) }
        try "pid \(stranger.processIdentifier)\nlayout crashed\n"
            .write(to: directory.appendingPathComponent("\(stranger.processIdentifier).mark"), atomically: true, encoding: .utf8)
        // A live process holding its mark: a running dashboard.
        let dashboard = try Self.process(markingIn: directory)
        defer { kill(dashboard.processIdentifier, SIGKILL) }
        // Written, not only made: the file exists a moment before its lines are in it.
        try await eventually("the running dashboard's mark") {
            let mark = try? String(contentsOf: directory.appendingPathComponent("\(dashboard.processIdentifier).mark"), encoding: .utf8)
            return mark?.contains("layout open\n") == true
        }

        #expect(RunMark.endedRuns(in: directory).map(\.run.layout) == ["crashed"])
        #expect(RunMark.runningDashboards(in: directory) == [dashboard.processIdentifier])
        #expect(RunMark.parse("pid 12\nlayout a%20b\ncrash 4 sysmon drawing its pane\n")
            == RunMark.EndedRun(pid: 12, layout: "a b", signal: 4, app: "sysmon", doing: "drawing its pane"))
    }
}
