import CNcursesw
@testable import NcursesTerminal
import Testing

@Suite("Bracketed paste: text between its markers, never keys")
struct PasteReaderTests {
    static func characters(_ text: String) -> [PasteReader.Read] { text.unicodeScalars.map { .character($0.value) } }

    @Test func aPasteIsTextLineBreaksIncluded() {
        var reader = PasteReader()
        #expect(reader.take(.character(0x71)) == .key, "outside a paste, a key")
        #expect(reader.take(.code(TC_KEY_PASTE_START)) == .taken)
        for read in Self.characters("count\r\nmy\tlaps q") { #expect(reader.take(read) == .taken) }
        #expect(reader.take(.code(TC_KEY_PASTE_END)) == .pasted("count\nmy\tlaps q"))
        #expect(reader.take(.character(0x71)) == .key)
    }

    @Test(arguments: [PasteReader.Read.code(Int32(KEY_UP)), .character(27), .character(17)])
    func whatNoTerminalPastesEndsItAndIsAKey(read: PasteReader.Read) {
        var reader = PasteReader()
        _ = reader.take(.code(TC_KEY_PASTE_START))
        _ = reader.take(.character(0x61))
        #expect(reader.take(read) == .cutShort("a"))
        #expect(reader.take(.character(0x71)) == .key, "the paste is over")
    }

    @Test func aStartMarkerLeftAloneEndsAfterASecond() {
        var reader = PasteReader()
        let start = ContinuousClock.now
        _ = reader.take(.code(TC_KEY_PASTE_START), at: start)
        #expect(reader.take(.character(0x61), at: start + .milliseconds(500)) == .taken)
        #expect(reader.take(.character(0x71), at: start + .milliseconds(1_600)) == .cutShort("a"))
    }

    @Test func aHugePasteKeepsItsFirst64KiB() {
        var reader = PasteReader()
        _ = reader.take(.code(TC_KEY_PASTE_START))
        let now = ContinuousClock.now
        for _ in 0..<(PasteReader.limit + 100) { _ = reader.take(.character(0x78), at: now) }
        guard case .pasted(let text) = reader.take(.code(TC_KEY_PASTE_END), at: now) else {
            Issue.record("no paste")
            return
        }
        #expect(text.unicodeScalars.count == PasteReader.limit)
    }
}

extension PasteReaderTests {
    @Test func anEmptyPasteCutShortIsJustTheKey() {
        var reader = PasteReader()
        _ = reader.take(.code(TC_KEY_PASTE_START))
        #expect(reader.take(.character(27)) == .key, "a lone start marker then Esc: no empty paste")
    }
}
