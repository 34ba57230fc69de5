import ArgumentParser
import Testing
@testable import termcanvas

/// Issue 55, item 11: help that breaks sentences in the middle of a line (a hard line break left
/// in a discussion) or spaces them apart (a continuation indented deeper than its text) reads as
/// broken. Every command's discussion is checked: a line of prose ends a sentence or a list's
/// lead-in, and no run of spaces sits inside one.
@Suite("Help texts")
struct HelpTextTests {
    static func commands(_ root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    @Test("no discussion breaks a sentence mid-line or spaces it apart")
    func discussionsAreWhole() {
        for command in Self.commands(TermCanvas.self) {
            let name = command.configuration.commandName ?? "\(command)"
            for line in command.configuration.discussion.split(separator: "\n") where !line.hasPrefix(" ") && !line.isEmpty {
                #expect(!line.contains("   "), "\(name): a run of spaces in \(line)")
                #expect(line.last.map { ".:;)`\"".contains($0) } ?? true, "\(name): a line of prose ends mid-sentence: \(line)")
            }
        }
    }
}
