import CanvasCore
@testable import NcursesTerminal
import Testing

/// Esc followed at once by a key is Alt+key; everything else keeps its order.
struct EscapeJoinerTests {
    private func join(_ events: [InputEvent]) -> [InputEvent] {
        var joiner = EscapeJoiner()
        for event in events { joiner.add(event) }
        return joiner.finish()
    }

    private let click = InputEvent.mouse(MouseEvent(.press, at: Point(x: 3, y: 4)))

    @Test func plainKeysPassThrough() {
        #expect(join([.key(.char("a")), .key(.tab), .key(.up)]) == [.key(.char("a")), .key(.tab), .key(.up)])
    }

    @Test func escapeThenKeyIsAltKey() {
        #expect(join([.key(.escape), .key(.char("1"))]) == [.key(.char("1", .alt))])
        #expect(join([.key(.escape), .key(.right)]) == [.key(.alt(.right))])
        #expect(join([.key(.escape), .key(.shift(.left))]) == [.key(Key(.left, [.alt, .shift]))])
    }

    @Test func loneEscapeIsEscape() {
        #expect(join([.key(.escape)]) == [.key(.escape)])
        #expect(join([.key(.char("x")), .key(.escape)]) == [.key(.char("x")), .key(.escape)])
    }

    @Test func escapeEscapeIsTwoEscapes() {
        #expect(join([.key(.escape), .key(.escape)]) == [.key(.escape), .key(.escape)])
        #expect(join([.key(.escape), .key(.escape), .key(.char("a"))]) == [.key(.escape), .key(.char("a", .alt))])
    }

    @Test func mouseAfterEscapeKeepsTheOrderAndTheNextKeyPlain() {
        #expect(join([.key(.escape), click, .key(.char("a"))]) == [.key(.escape), click, .key(.char("a"))])
        #expect(join([click, .key(.escape), .key(.char("a"))]) == [click, .key(.char("a", .alt))])
    }

    @Test func resizeAfterEscapeAlsoFlushesIt() {
        let resize = InputEvent.resize(Size(width: 80, height: 24))
        #expect(join([.key(.escape), resize]) == [.key(.escape), resize])
    }

    @Test func flushEndsAPendingEscape() {
        var joiner = EscapeJoiner()
        joiner.add(.escape)
        joiner.flush()
        joiner.add(.char("z"))
        #expect(joiner.finish() == [.key(.escape), .key(.char("z"))])
    }

    @Test func finishStartsOver() {
        var joiner = EscapeJoiner()
        joiner.add(.char("a"))
        #expect(joiner.finish() == [.key(.char("a"))])
        #expect(joiner.finish().isEmpty)
    }
}
