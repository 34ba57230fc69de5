import AppModel
import CanvasFiles
import Foundation
import Logging
import MicroAppHost
import MicroAppProtocol
import Synchronization
import Testing

/// Grants everything: these tests are about running apps, not asking.
struct AllGranted: AppGrants {
    func isGranted(_ app: InstalledApp) async -> Bool { true }
    func grant(_ app: InstalledApp) async throws {}
}

/// One fixture app run by a real runtime, its updates gathered as they arrive.
final class AppHarness: Sendable {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Fixtures/apps")

    let runtime: MicroAppRuntime
    let connection: any MicroAppConnection
    let logDirectory: URL
    let appID: String
    private let seen = Mutex<(status: AppStatus?, view: ViewUpdate?, publishes: [Publish], throttled: Int, state: JSONValue?,
                              crashes: [String], statuses: [AppStatus])>((nil, nil, [], 0, nil, [], []))
    private let wakes: AsyncStream<Void>.Continuation
    private let woken: AsyncStream<Void>

    /// Runs the fixture app `id`, or the app in `folder`.
    init(_ id: String, folder: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
         state: JSONValue = .null) throws {
        appID = id
        logDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-app-logs-\(UUID().uuidString)")
        let app = try AppFolders.read(folder ?? Self.fixtures.appendingPathComponent(id), isShipped: false)
        runtime = MicroAppRuntime(environment: environment, logDirectory: logDirectory,
                                  dataDirectory: logDirectory.appendingPathComponent("data"), grants: AllGranted(), backend: nil,
                                  logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        connection = runtime.connection(for: app)
        (woken, wakes) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let parameters = InitializeParams(
            instance: "\(id)-1", appID: id, appVersion: app.manifest.version, size: ViewSize(width: 40, height: 10),
            focused: true, visible: true, roles: ["text"], settings: .object([:]), state: state, permissions: .none)
        let wakes = wakes
        connection.start(parameters, wake: { wakes.yield() })
        runtime.begin()
    }

    deinit {
        try? FileManager.default.removeItem(at: logDirectory)
    }

    /// Takes what arrived.
    private func collect() {
        let updates = connection.takeUpdates()
        seen.withLock { seen in
            if let status = updates.status {
                seen.status = status
                seen.statuses.append(status)
            }
            if let view = updates.view { seen.view = view }
            seen.publishes += updates.publishes
            seen.throttled += updates.throttled
            if let state = updates.state { seen.state = state }
            seen.crashes += updates.crashes
        }
    }

    /// Waits until `condition` holds of what arrived, at most `seconds`.
    @discardableResult
    func wait(_ seconds: Double = 5, until condition: @Sendable (AppHarness) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        collect()
        while !condition(self) {
            guard ContinuousClock.now < deadline else { return false }
            // A wake, or a short look again: a wake may have come between collect and here.
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [woken] in for await _ in woken { return } }
                group.addTask { try? await Task.sleep(for: .milliseconds(50)) }
                await group.next()
                group.cancelAll()
            }
            collect()
        }
        return true
    }

    var status: AppStatus? { seen.withLock { $0.status } }
    var statuses: [AppStatus] { seen.withLock { $0.statuses } }
    var view: ViewUpdate? { seen.withLock { $0.view } }
    var publishes: [Publish] { seen.withLock { $0.publishes } }
    var throttled: Int { seen.withLock { $0.throttled } }
    var state: JSONValue? { seen.withLock { $0.state } }
    var crashes: [String] { seen.withLock { $0.crashes } }

    var viewText: String {
        guard case .text(let text, _, _)? = view?.root else { return "" }
        return text
    }

    /// The app's own log.
    var log: String { MicroAppRuntime.readLog(of: appID, in: logDirectory) ?? "" }
}

/// The ids of the live processes whose command line contains `text`.
func processes(matching text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let command = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        return command.contains(text) && !command.contains("swift") && !command.contains("xctest")
    }
}

/// How many processes are zombies waiting for an app's keeper (`tc-app-keeper`) to reap them:
/// a command line shows none of them, but each still holds a process id and its user's allowance.
func zombiesOfKeepers() -> Int {
    let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
    /// The state and parent from /proc/PID/stat ("PID (COMM) STATE PPID …"; COMM may hold parentheses).
    func stateAndParent(_ pid: Int32) -> (String, Int32)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1 else { return nil }
        return (String(fields[0]), Int32(fields[1]) ?? 0)
    }
    let keepers = Set(pids.filter { (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) == "tc-app-keeper\n" })
    return pids.count { pid in stateAndParent(pid).map { $0.0 == "Z" && keepers.contains($0.1) } ?? false }
}

/// A process's command line, arguments joined by spaces.
func commandLine(_ pid: Int32) -> String {
    String(decoding: (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()).map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
}

/// A process for a failure message: its id, state, parent, group and command line.
func describe(_ pid: Int32) -> String {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last.map { $0.split(separator: " ").prefix(4).joined(separator: " ") } ?? ""
    return "\(pid) [\(fields)] \(commandLine(pid))"
}

/// This process's resident memory in bytes.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}
