import CalendarTime
import Foundation
import Recurrence
import TestSupport
import Testing

/// The expansion against the field's reference, run side by side: python-dateutil's `rrule`
/// (pinned: `CalendarOracle`) expands
/// the same rules from the same starts, RFC 5545's examples and a corpus of random rules of every
/// frequency and part, and every instance must agree.
@Suite("Recurrence against python-dateutil")
struct RecurrenceOracleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Case: Codable {
        let rule: String
        let start: String
        /// Where the range asked for begins: the start, or later (the expansion skips toward it).
        let from: String
        let end: String
        let limit: Int
    }

    @Test func everyInstanceAgreesWithDateutil() async throws {
        var cases = RFC5545ExamplesTests.examples.map {
            Case(rule: $0.rule.replacingOccurrences(of: "Z", with: ""), start: $0.start, from: $0.start, end: "2010-01-01T00:00:00", limit: 200)
        }
        var random = SplitMix64(seed: 5545)
        for _ in 0..<1000 { cases.append(Self.randomCase(&random)) }
        let answers = try await Self.dateutilAnswers(cases)
        try #require(answers.count == cases.count)
        // Most rules have instances in their range: a corpus of rules with none would compare nothing.
        #expect(answers.filter { !($0 ?? []).isEmpty }.count > cases.count / 2)

        var disagreements: [String] = []
        for (test, answer) in zip(cases, answers) {
            let rule = try RecurrenceRule(parsing: test.rule)
            let start = try #require(RFC5545ExamplesTests.moment(test.start))
            let from = try #require(RFC5545ExamplesTests.moment(test.from))
            let end = try #require(RFC5545ExamplesTests.moment(test.end))
            let ours = rule.instances(from: start, in: from...end, limit: test.limit).map(\.description)
            let theirs = answer ?? []
            if ours != theirs {
                let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, theirs.count)
                disagreements.append("\(test.rule) from \(test.start): \(ours.count) instances, dateutil \(theirs.count); "
                    + "first apart at \(firstDifference): \(ours.dropFirst(firstDifference).first ?? "none") against \(theirs.dropFirst(firstDifference).first ?? "none")")
            }
        }
        #expect(disagreements.isEmpty, Comment(rawValue: "\(disagreements.count) of \(cases.count) rules disagree:\n" + disagreements.prefix(8).joined(separator: "\n")))
    }

    /// A rule of any frequency with the parts its frequency allows, each often enough that every
    /// combination comes up in a corpus of a few thousand.
    static func randomCase(_ random: inout SplitMix64) -> Case {
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func some(_ range: ClosedRange<Int>, upTo count: Int, signed: Bool = false) -> [Int] {
            let values = (0..<Int.random(in: 1...count, using: &random)).map { _ in
                let value = Int.random(in: range, using: &random)
                return signed && chance(30) ? -value : value
            }
            return Array(Set(values)).sorted()
        }
        let frequencies: [(RecurrenceRule.Frequency, Int)] = [(.yearly, 25), (.monthly, 25), (.weekly, 20), (.daily, 15), (.hourly, 8), (.minutely, 5), (.secondly, 2)]
        var roll = Int.random(in: 0..<100, using: &random)
        let frequency = frequencies.first { roll -= $0.1; return roll < 0 }?.0 ?? .daily
        var rule = RecurrenceRule(frequency: frequency)
        if chance(40) { rule.interval = Int.random(in: 2...5, using: &random) }
        let date = CalendarDate(year: Int.random(in: 1995...2030, using: &random), month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!
        let start = LocalDateTime(date: date, hour: Int.random(in: 0...23, using: &random), minute: [0, 15, 30, 45].randomElement(using: &random)!)!
        let short = frequency >= .hourly
        let end = short ? start.adding(seconds: 20 * 86_400) : start.adding(seconds: 3 * 366 * 86_400)
        if chance(35) {
            rule.end = .count(Int.random(in: 1...40, using: &random))
        } else if chance(35) {
            let span = short ? Int64.random(in: 3600...(10 * 86_400), using: &random) : Int64.random(in: 86_400...(2 * 366 * 86_400), using: &random)
            rule.end = .until(.local(start.adding(seconds: span)))
        }
        if frequency != .weekly || chance(30), chance(30) { rule.byMonth = some(1...12, upTo: 3) }
        if chance(40) {
            let positioned = frequency <= .monthly && chance(50)
            let limit = frequency == .yearly && rule.byMonth.isEmpty ? 53 : 5
            rule.byDay = Array(Set(some(0...6, upTo: 3).map { day in
                RecurrenceRule.WeekdayNumber(RecurrenceRule.Weekday(rawValue: day)!,
                                             ordinal: positioned ? Int.random(in: 1...limit, using: &random) * (chance(40) ? -1 : 1) : nil)
            })).sorted { ($0.weekday, $0.ordinal ?? 0) < ($1.weekday, $1.ordinal ?? 0) }
        }
        if frequency != .weekly, chance(30) { rule.byMonthDay = some(1...31, upTo: 3, signed: true) }
        if frequency == .yearly, chance(20) { rule.byYearDay = some(1...366, upTo: 3, signed: true) }
        if frequency == .yearly, chance(15) { rule.byWeekNo = some(1...53, upTo: 2, signed: true) }
        if chance(20) { rule.byHour = some(0...23, upTo: 3) }
        if chance(15) { rule.byMinute = some(0...59, upTo: 2) }
        if chance(5) { rule.bySecond = some(0...59, upTo: 2) }
        // Positions among a period's candidates: a period of a week or longer has several. (A
        // position a period never has makes a rule with no instance, for which dateutil walks
        // to the year 9999: a few such rules are in the corpus anyway.)
        if chance(20), frequency <= .weekly, !rule.byDay.isEmpty || !rule.byMonthDay.isEmpty {
            rule.bySetPos = some(1...3, upTo: 2, signed: true)
        }
        if chance(20) { rule.weekStart = RecurrenceRule.Weekday(rawValue: Int.random(in: 0...6, using: &random))! }
        // Half the ranges begin later than the start: a month or a year viewed long after it, the
        // expansion skipping toward it. (Not for rules of seconds: dateutil walks them a second at
        // a time, and a later start would only time it out.)
        let from = frequency != .secondly && chance(50) ? start.adding(seconds: Int64.random(in: 0...(end.secondsSinceEpoch - start.secondsSinceEpoch), using: &random)) : start
        return Case(rule: rule.text, start: start.description, from: from.description, end: end.description, limit: 300)
    }

    /// dateutil's instances for each case: nil where it finds none ever, or refuses the rule.
    static func dateutilAnswers(_ cases: [Case]) async throws -> [[String]?] {
        let python = try await CalendarOracle.python()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-recurrence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cases.jsonl"), output = folder.appendingPathComponent("answers.jsonl")
        let encoder = JSONEncoder()
        try cases.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let run = try await Command.run([python, root.appendingPathComponent("Tests/RecurrenceTests/oracle.py").path, input.path, output.path])
        try #require(run.status == 0, "the oracle failed: \(run.output)")
        return try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { line in
            try? JSONDecoder().decode([String].self, from: Data(line.utf8))
        }
    }
}
