import Foundation
@testable import SessionBus
import TestSupport
import Testing

/// A desktop notification goes onto a real session bus (a `dbus-daemon` of the test's own, whose
/// traffic `dbus-monitor` records) as `org.freedesktop.Notifications.Notify`; without a
/// notification service, or without a bus, the problem is named in our words.
struct DesktopNotificationTests {
    @Test func aNotificationIsANotifyCallOnTheSessionBus() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try await Command.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1",
                                             "--address=unix:path=\(folder.path)/bus"])
        let lines = started.output.split(separator: "\n").map(String.init)
        let address = try #require(lines.first)
        let daemon = try #require(lines.dropFirst().first.flatMap { pid_t($0) })
        defer { kill(daemon, SIGTERM) }
        let recording = folder.appendingPathComponent("monitor.txt").path
        let monitor = try Command.start(["sh", "-c", "exec dbus-monitor --address '\(address)' > '\(recording)' 2>&1"])
        defer { kill(monitor, SIGTERM) }
        try await eventually("the monitor to listen") { (try? String(contentsOfFile: recording, encoding: .utf8))?.contains("NameLost") == true }

        let result = await Task.detached { DesktopNotification.send(summary: "TermCanvas", body: "Reminder: <b>Stand-up</b> in 15 min\u{0}!", address: address) }.value
        #expect(result == .noService)
        let seen = try await eventually("the Notify call on the bus") { () -> String? in
            let text = try? String(contentsOfFile: recording, encoding: .utf8)
            return text?.contains("member=Notify") == true && text?.contains("int32 10000") == true ? text : nil
        }
        #expect(seen.contains("string \"TermCanvas\""))
        #expect(seen.contains("string \"Reminder: &lt;b&gt;Stand-up&lt;/b&gt; in 15 min !\""))
        #expect(DesktopNotification.Problem.noService.description.contains("no notification service"))
    }

    @Test func noBusIsSaidSo() async {
        let result = await Task.detached { DesktopNotification.send(summary: "x", body: "y", address: "unix:path=/nonexistent/bus") }.value
        #expect(result == .noBus)
    }
}
