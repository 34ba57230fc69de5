@testable import NcursesTerminal
import Testing

@Suite("A capability's parameters as digits between fixed bytes")
struct DecimalTemplateTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func anAddressCountingFromOneIsFilledInAsTheInterpreterWould() throws {
        let cup = try #require(DecimalTemplate(parameters: 2) { Self.bytes("\u{1B}[\($0 + 1);\($1 + 1)H") })
        #expect(cup.pieces == [Self.bytes("\u{1B}["), Self.bytes(";"), Self.bytes("H")])
        #expect(cup.offset == 1)
        #expect(cup.fill(0, 0) == Self.bytes("\u{1B}[1;1H"))
        #expect(cup.fill(39, 119) == Self.bytes("\u{1B}[40;120H"))
        #expect(cup.fill(-5, 1_000_000) == Self.bytes("\u{1B}[-4;1000001H"))
        let column = try #require(DecimalTemplate(parameters: 1) { first, _ in Self.bytes("\u{1B}[\(first)C") })
        #expect(column.fill(12, 99) == Self.bytes("\u{1B}[12C"), "the second parameter is not written")
    }

    @Test func aTemplateThatIsNotPlainDigitsIsLeftToTheInterpreter() {
        // Zero-padded, as `%03d` writes.
        #expect(DecimalTemplate(parameters: 1) { first, _ in Self.bytes("\u{1B}[" + String(repeating: "0", count: max(0, 3 - "\(first)".count)) + "\(first)G") } == nil)
        // A conditional: another form past a column.
        #expect(DecimalTemplate(parameters: 1) { first, _ in Self.bytes(first < 100 ? "\u{1B}[\(first)G" : "\u{1B}[\(first)`") } == nil)
        // The number found in the wrong place of a sample: it also appears in the fixed bytes.
        #expect(DecimalTemplate(parameters: 1) { first, _ in Self.bytes("7531\(first)x") } == nil)
        // No expansion at all.
        #expect(DecimalTemplate(parameters: 2) { _, _ in nil } == nil)
    }
}
