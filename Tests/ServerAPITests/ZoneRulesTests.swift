@testable import CalendarTime
import Foundation
import TestSupport
import Testing

/// Time zones read from the system's tz database (TZif) against Python's `zoneinfo`, which reads
/// the same files: offsets at moments from 1900 to 2100 (around every transition, and past the
/// last, where the file's POSIX rule takes over), and wall-clock times turned into moments, those
/// the clocks skip or pass twice among them.
@Suite("Time zones from the tz database")
struct ZoneRulesTests {
    static let zones = ["Europe/Paris", "America/New_York", "Australia/Sydney", "Europe/Dublin", "Asia/Kolkata", "America/Sao_Paulo",
                        "Pacific/Chatham", "Africa/Casablanca", "America/St_Johns", "Asia/Tehran", "Pacific/Apia", "UTC", "America/Godthab",
                        "Antarctica/Troll", "Europe/London"]

    struct Case: Codable {
        let zone: String
        let instants: [Int64]
        /// Wall-clock times: year, month, day, hour, minute, second.
        let locals: [[Int]]
    }

    struct Answer: Codable {
        let offsets: [Int]
        let utcs: [Int64]
    }

    @Test func offsetsAndWallClockTimesAgreeWithPythonsZoneinfo() async throws {
        var random = SplitMix64(seed: 8536)
        var cases: [Case] = []
        var rules: [ZoneRules] = []
        let first = Int64(-2_208_988_800), last = Int64(4_102_444_800)  // 1900 and 2100
        for zone in Self.zones {
            let zoneRules = try ZoneRules(tzif: Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/\(zone)"))))
            rules.append(zoneRules)
            var instants: [Int64] = []
            var locals: [LocalDateTime] = []
            for transition in zoneRules.transitions where (first...last).contains(transition) {
                instants += [transition - 1, transition, transition + 1]
                let before = zoneRules.offset(atUTC: transition - 1), after = zoneRules.offset(atUTC: transition)
                for delta in [-1800, -1, 0, 1, 1800] {
                    locals.append(LocalDateTime(secondsSinceEpoch: transition + Int64(min(before, after) + delta)))
                    locals.append(LocalDateTime(secondsSinceEpoch: transition + Int64(max(before, after) + delta)))
                }
            }
            for _ in 0..<400 {
                let moment = Int64.random(in: first...last, using: &random)
                instants.append(moment)
                locals.append(LocalDateTime(secondsSinceEpoch: moment))
            }
            // Past the last transition in the file, where its footer's rule decides.
            for year in stride(from: 2037, through: 2099, by: 3) {
                for month in [1, 3, 4, 10, 11] {
                    let moment = LocalDateTime(date: CalendarDate(year: year, month: month, day: Int.random(in: 1...28, using: &random))!,
                                               hour: Int.random(in: 0...23, using: &random), minute: 30)!
                    instants.append(moment.secondsSinceEpoch)
                    locals.append(moment)
                }
            }
            cases.append(Case(zone: zone, instants: instants,
                              locals: locals.map { [$0.date.year, $0.date.month, $0.date.day, $0.hour, $0.minute, $0.second] }))
        }
        let answers = try await Self.zoneinfo(cases)
        try #require(answers.count == cases.count)
        for ((test, zoneRules), answer) in zip(zip(cases, rules), answers) {
            let offsets = test.instants.map { zoneRules.offset(atUTC: $0) }
            let wrongOffsets = zip(test.instants, zip(offsets, answer.offsets)).filter { $1.0 != $1.1 }
            #expect(wrongOffsets.isEmpty, "\(test.zone): \(wrongOffsets.count) offsets differ, first at \(wrongOffsets.first.map { "\($0.0): \($0.1.0) against \($0.1.1)" } ?? "")")
            let utcs = test.locals.map { zoneRules.utc(of: LocalDateTime(date: CalendarDate(year: $0[0], month: $0[1], day: $0[2])!, hour: $0[3], minute: $0[4], second: $0[5])!) }
            let wrongUTCs = zip(test.locals, zip(utcs, answer.utcs)).filter { $1.0 != $1.1 }
            #expect(wrongUTCs.isEmpty, "\(test.zone): \(wrongUTCs.count) wall-clock times differ, first at \(wrongUTCs.first.map { "\($0.0): \($0.1.0) against \($0.1.1)" } ?? "")")
        }
    }

    @Test func aDamagedFileIsRefusedNotTrappedOn() throws {
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Paris")))
        #expect(throws: ZoneFileError(description: "not a TZif file")) { try ZoneRules(tzif: Array("TZxx".utf8) + good.dropFirst(4)) }
        for length in [0, 3, 20, 44, 100, good.count / 2, good.count - 30] {
            #expect(throws: ZoneFileError.self, "\(length) bytes") { try ZoneRules(tzif: Array(good.prefix(length))) }
        }
        var huge = good
        huge[32..<36] = [0x7F, 0xFF, 0xFF, 0xFF]  // the transitions' count
        #expect(throws: ZoneFileError(description: "a count past any real zone's")) { try ZoneRules(tzif: huge) }
        #expect(throws: (any Error).self) { try ZoneRules(tzif: good.map { $0 ^ 0x5A }) }
    }

    @Test func posixRulesOfTheFooter() throws {
        let paris = try #require(PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        let start = LocalDateTime(date: "2026-03-29", hour: 1, minute: 0)!.secondsSinceEpoch
        let end = LocalDateTime(date: "2026-10-25", hour: 1, minute: 0)!.secondsSinceEpoch
        #expect(paris.offset(atUTC: start - 1) == 3600 && paris.offset(atUTC: start) == 7200)
        #expect(paris.offset(atUTC: end - 1) == 7200 && paris.offset(atUTC: end) == 3600)
        #expect(PosixZoneRule("<+0330>-3:30")?.offset(atUTC: 0) == 12_600)
        #expect(PosixZoneRule("EST5EDT,M3.2.0,M11.1.0")?.standardOffset == -18_000)
        for bad in ["", "C-1", "CET", "CET-1CEST", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.0,M10.5.0/200", "<+03-3"] {
            #expect(PosixZoneRule(bad) == nil, "\(bad)")
        }
    }

    static func zoneinfo(_ cases: [Case]) async throws -> [Answer] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cases.json"), output = folder.appendingPathComponent("answers.json")
        try JSONEncoder().encode(cases).write(to: input)
        let script = """
            import json, sys
            from datetime import datetime
            from zoneinfo import ZoneInfo
            answers = []
            for case in json.load(open(sys.argv[1])):
                zone = ZoneInfo(case["zone"])
                answers.append({"offsets": [int(datetime.fromtimestamp(t, zone).utcoffset().total_seconds()) for t in case["instants"]],
                                "utcs": [int(datetime(*l, tzinfo=zone).timestamp()) for l in case["locals"]]})
            json.dump(answers, open(sys.argv[2], "w"))
            """
        let run = try await Command.run(["python3", "-c", script, input.path, output.path])
        try #require(run.status == 0, "python3's zoneinfo failed: \(run.output)")
        return try JSONDecoder().decode([Answer].self, from: Data(contentsOf: output))
    }
}
