import MicroAppProtocol
import Testing

@Suite("Line framing: lines whole, split anywhere, bounded")
struct LineFramerTests {
    @Test func linesArriveWholeHoweverTheBytesAreSplit() {
        let text = Array("{\"a\":1}\n{\"b\":2}\r\n\n{\"c\":3}\n".utf8)
        for split in 0...text.count {
            var framer = LineFramer()
            let items = framer.feed(text[..<split]) + framer.feed(text[split...])
            #expect(items == [.line(Array("{\"a\":1}".utf8)), .line(Array("{\"b\":2}".utf8)), .line([]), .line(Array("{\"c\":3}".utf8))])
            #expect(framer.bufferedCount == 0)
        }
    }

    @Test func aLineOverTheLimitIsDroppedWholeAndTheNextOneIsRead() {
        var framer = LineFramer(limit: 10)
        var items = framer.feed(Array("0123456789A".utf8))
        #expect(items.isEmpty)
        #expect(framer.bufferedCount == 0)  // nothing of it is kept
        items = framer.feed(Array("BCDEF".utf8) + [0x0A] + Array("ok".utf8) + [0x0A])
        #expect(items == [.tooLong(bytes: 16), .line(Array("ok".utf8))])
    }

    @Test func aLineOfExactlyTheLimitIsKept() {
        var framer = LineFramer(limit: 4)
        #expect(framer.feed(Array("abcd\n".utf8)) == [.line(Array("abcd".utf8))])
        #expect(framer.feed(Array("abcde\n".utf8)) == [.tooLong(bytes: 5)])
    }

    @Test func memoryStaysBoundedWhateverIsWritten() {
        var framer = LineFramer()
        let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)
        for _ in 0..<(32 * 16) {  // 32 MiB without a newline
            _ = framer.feed(chunk)
            #expect(framer.bufferedCount <= LineFramer.standardLimit)
        }
        #expect(framer.feed([0x0A]) == [.tooLong(bytes: 32 * 1024 * 1024)])
    }
}

@Suite("Line framer: what it drops is counted as it comes")
struct LineFramerDroppedTests {
    @Test func anEndlessLineIsCountedBeforeItEnds() {
        var framer = LineFramer(limit: 10)
        #expect(framer.feed(Array("abc\n".utf8)) == [.line(Array("abc".utf8))])
        #expect(framer.droppedInAll == 0)
        _ = framer.feed([UInt8](repeating: 0x78, count: 8))
        #expect(framer.droppedInAll == 0, "within the limit, held")
        _ = framer.feed([UInt8](repeating: 0x78, count: 8))
        #expect(framer.droppedInAll == 16)
        _ = framer.feed([UInt8](repeating: 0x78, count: 100))
        #expect(framer.droppedInAll == 116)
        #expect(framer.feed(Array("x\nok\n".utf8)) == [.tooLong(bytes: 117), .line(Array("ok".utf8))])
        #expect(framer.droppedInAll == 118)
    }
}
