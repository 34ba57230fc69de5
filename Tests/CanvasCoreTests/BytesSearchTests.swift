import PlainText
import Testing

/// The byte search the start and request paths use instead of the standard library's searcher.
struct BytesSearchTests {
    @Test func findsTheFirstOccurrence() {
        let url = "http://localhost:7450/api/x://y"
        let range = url.utf8Range(of: "://")
        #expect(range.map { String(url[$0.upperBound...]) } == "localhost:7450/api/x://y")
        #expect("/usr/share/zoneinfo/Europe/Paris".utf8Range(of: "zoneinfo/").map { "/usr/share/zoneinfo/Europe/Paris"[$0.upperBound...] } == "Europe/Paris")
    }

    @Test func aPartialMatchBeforeTheWholeIsPassedOver() {
        let text = "$$$<3"
        #expect(text.utf8Range(of: "$<").map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } == 2)
        #expect("zoneinf zoneinfo/x".utf8Range(of: "zoneinfo/") != nil)
    }

    @Test func absentAtTheEndOrAnywhere() {
        #expect(!"abc$".utf8Contains("$<"))
        #expect(!"".utf8Contains("a"))
        #expect("".utf8Contains(""))
        #expect(!"Europe..Paris/".utf8Contains("/.."))
        #expect("a/../b".utf8Contains(".."))
    }

    @Test func searchesASubstringWithinItsBounds() {
        let text = "ab://cd"
        let tail = text.dropFirst(3)
        #expect(tail.utf8Range(of: "://") == nil)
        #expect(tail.utf8Contains("/cd"))
    }

    @Test func nonASCIIIsMatchedByItsBytes() {
        let text = "Zoë → Zürich"
        #expect(text.utf8Range(of: "→ Z").map { String(text[$0]) } == "→ Z")
        #expect(!text.utf8Contains("Zo\u{0308}"))
    }
}
