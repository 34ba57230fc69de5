@testable import NcursesTerminal
import Testing

/// A reminder's alert: what `auto` is in which terminal, and text that cannot break out of its
/// escape sequence.
struct TerminalAlertTests {
    @Test func autoIsANotificationWhereTheTerminalShowsThemAndTheBellElsewhere() {
        #expect(TerminalAlert.auto.resolved(environment: ["TERM_PROGRAM": "iTerm.app"]) == .osc9)
        #expect(TerminalAlert.auto.resolved(environment: ["TERM": "xterm-kitty"]) == .osc9)
        #expect(TerminalAlert.auto.resolved(environment: ["TERM": "foot"]) == .osc777)
        #expect(TerminalAlert.auto.resolved(environment: ["TERM": "xterm-256color"]) == .bell)
        // tmux and screen keep the sequence from the terminal outside.
        #expect(TerminalAlert.auto.resolved(environment: ["TERM_PROGRAM": "WezTerm", "TMUX": "/tmp/tmux-0/default,1,0"]) == .bell)
        #expect(TerminalAlert.osc777.resolved(environment: ["TMUX": "x"]) == .osc777)
    }

    @Test func textFromACalendarCannotEndTheSequenceNorRunLong() {
        let hostile = "Stand-up\u{07}\u{1B}]0;owned\u{1B}\\\u{9C};next\u{7F}" + String(repeating: "é", count: 500)
        let bytes = TerminalAlert.osc777.bytes(for: hostile)
        let prefix = Array("\u{1B}]777;notify;TermCanvas;".utf8)
        #expect(Array(bytes.prefix(prefix.count)) == prefix && bytes.last == 0x07)
        let text = bytes.dropFirst(prefix.count).dropLast()
        #expect(!text.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") })
        #expect(!String(decoding: text, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(text.count <= TerminalAlert.textBytes && String(validating: Array(text), as: UTF8.self) != nil)
        #expect(TerminalAlert.bell.bytes(for: hostile) == [0x07] && TerminalAlert.off.bytes(for: hostile).isEmpty)
    }
}
