import Foundation

/// The Python of the calendar tests' oracles: python-dateutil and python `icalendar`, pinned, in a
/// virtual environment under `.build/` made on first use (as `deploy/test-conformance` makes
/// schemathesis's), so the field's reference runs beside our expansion in the same test.
public enum CalendarOracle {
    public static let packages = ["python-dateutil==2.9.0.post0", "icalendar==7.3.2"]

    /// The environment's python, made when missing or holding other versions: once a process, as
    /// the tests that ask for it run at once (two making it together would undo each other).
    public static func python() async throws -> String {
        try await made.value
    }

    private static let made = Task<String, any Error> {
        try await PinnedPython.make("calendar-oracle-venv", packages: packages,
                                    check: "import dateutil, icalendar; print(dateutil.__version__, icalendar.__version__)")
    }

    /// Real calendars as programs export them, and the oracle's script (`Tests/ICalendarTests/Fixtures`).
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/ICalendarTests/Fixtures")

    /// The instances of `file`'s events and tasks starting at or after `from` and before `to`
    /// (ISO 8601 with `Z`), as python `icalendar` and dateutil compute them with `home` as the zone
    /// of floating times and days: `[uid, start in UTC]` pairs, by start.
    public static func instances(of file: URL, home: String, from: String, to: String) async throws -> [[String]] {
        let python = try await python()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tc-occurrences-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await Command.run([python, fixtures.appendingPathComponent("oracle.py").path, file.path, home,
                                         from.replacingOccurrences(of: "Z", with: "+00:00"), to.replacingOccurrences(of: "Z", with: "+00:00"),
                                         output.path])
        guard run.status == 0 else { throw OracleError(description: "the oracle failed: \(run.output)") }
        return try JSONDecoder().decode([[String]].self, from: Data(contentsOf: output))
    }

    public struct OracleError: Error, CustomStringConvertible {
        public let description: String
    }
}
