import Foundation
import FoundationXML
import TestSupport
import Testing
import WebDAVXML

/// The WebDAV XML reader against what CalDAV servers send, against hostile answers, and against
/// libxml2 (FoundationXML, which it replaced in the server) as an oracle: on every document both
/// read, the same elements.
@Suite("WebDAV XML")
struct XMLReaderTests {
    static let dav = DAVElement.dav
    static let calDAV = DAVElement.calDAV

    /// A sync-collection answer as Radicale writes it, with what other servers add: a default
    /// namespace, CDATA, references, comments, a processing instruction and CR LF line ends.
    static let multistatus = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>\r
        <!-- a comment --><?php echo "ignored"; ?>
        <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\r
          <response>
            <href>/ann/work/a%20b.ics</href>
            <propstat>
              <prop>
                <getetag>"e&amp;1"</getetag>
                <C:calendar-data><![CDATA[BEGIN:VCALENDAR\r
        SUMMARY:<b> & more\r
        END:VCALENDAR\r
        ]]></C:calendar-data>
                <C:supported-calendar-component-set><C:comp name="VEVENT"/><C:comp name='VTODO'></C:comp></C:supported-calendar-component-set>
              </prop>
              <status>HTTP/1.1 200 OK</status>
            </propstat>
          </response>
          <sync-token>http://radicale.org/ns/sync/&#x31;&#50;3</sync-token>
        </multistatus>
        """

    @Test("a CalDAV server's multistatus: namespaces, CDATA (its CR LF kept), references, the name attribute, other line ends as LF")
    func multistatusIsRead() throws {
        let root = try #require(DAVElement.parse(Data(Self.multistatus.utf8)))
        #expect(root.namespace == Self.dav && root.name == "multistatus")
        let response = try #require(root.child(Self.dav, "response"))
        #expect(response.child(Self.dav, "href")?.value == "/ann/work/a%20b.ics")
        let prop = try #require(response.path([(Self.dav, "propstat"), (Self.dav, "prop")]))
        #expect(prop.child(Self.dav, "getetag")?.value == "\"e&1\"")
        #expect(prop.child(Self.calDAV, "calendar-data")?.text == "BEGIN:VCALENDAR\r\nSUMMARY:<b> & more\r\nEND:VCALENDAR\r\n")
        #expect(root.text == "\n  \n  \n", "CR LF outside CDATA read as LF")
        let components = prop.child(Self.calDAV, "supported-calendar-component-set")?.children(Self.calDAV, "comp").map(\.text)
        #expect(components == ["VEVENT", "VTODO"])
        #expect(root.child(Self.dav, "sync-token")?.value == "http://radicale.org/ns/sync/123")
    }

    @Test("namespaces are scoped: a prefix rebound inside, the default namespace undeclared, a prefix from an ancestor")
    func namespacesAreScoped() throws {
        let root = try #require(DAVElement.parse(Data("""
            <d:a xmlns:d="DAV:" xmlns:x="urn:x"><d:b xmlns:d="urn:other"/><c xmlns="urn:c"><e xmlns=""/><x:f/></c><d:g/></d:a>
            """.utf8)))
        #expect(root.children.map { "\($0.namespace) \($0.name)" } == ["urn:other b", "urn:c c", "DAV: g"])
        #expect(root.children[1].children.map { "\($0.namespace)|\($0.name)" } == ["|e", "urn:x|f"])
    }

    @Test("references: the five entities and characters by number, in text and attributes")
    func referencesAreDecoded() throws {
        let root = try #require(DAVElement.parse(Data(#"<a>&lt;&gt;&amp;&quot;&apos;&#65;&#x1F642;&#0000000000000066;<b name="&lt;x&#10;y"/></a>"#.utf8)))
        #expect(root.text == "<>&\"'A🙂B")
        #expect(root.children.first?.text == "<x\ny")
    }

    @Test("a value is its text without XML's white space around it, a CR LF included")
    func valueTrimsCRLF() throws {
        let root = try #require(DAVElement.parse(Data("<a> \t/c/a.ics&#13;&#10;<![CDATA[\r\n]]></a>".utf8)))
        #expect(root.value == "/c/a.ics")
    }

    /// What a conforming parser must refuse, and what this one refuses besides: a document type,
    /// and encodings other than UTF-8.
    @Test("not well-formed, or a document type: refused", arguments: [
        #"<!DOCTYPE a [<!ENTITY l "lol"><!ENTITY l2 "&l;&l;&l;&l;&l;&l;&l;&l;&l;&l;">]><a>&l2;</a>"#,
        #"<!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>"#,
        "<a>&nbsp;</a>", "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&#x110000;</a>", "<a>&#;</a>", "<a>&#x;</a>", "<a>&amp</a>",
        "<p:a/>", "<a xmlns:p=\"\"/>", "<a:b:c xmlns:a=\"urn:a\"/>", "<a p:x=\"1\"/>", "<a xmlns:xmlns=\"urn:x\"/>",
        "<a></b>", "<a><b></a></b>", "<a>", "<a/><b/>", "<a/>text", "text<a/>", "", "   ", "<a", "<a b=c/>", "<a b=\"1\" b=\"2\"/>",
        "<a b=\"1\"c=\"2\"/>", "<a b=\"<\"/>", "<a>]]></a>", "<a><!-- x -- y --></a>", "<a><![CDATA[x</a>", "<a/><?xml version=\"1.0\"?>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "<a/><?XML x?>", "<a:b:c:d xmlns:a=\"urn:a\"/>", "<?xml encoding=\"UTF-8\"?><a/>", "<a>\u{1}</a>", "<a>\u{FFFE}</a>", "<1a/>",
    ])
    func refused(_ document: String) {
        #expect(DAVElement.parse(Data(document.utf8)) == nil)
    }

    @Test("bytes that are not UTF-8: refused")
    func notUTF8IsRefused() {
        #expect(DAVElement.parse(Data("<a>".utf8) + Data([0xC3, 0x28]) + Data("</a>".utf8)) == nil)
        #expect(DAVElement.parse(Data("<a>".utf8) + Data([0xED, 0xA0, 0x80]) + Data("</a>".utf8)) == nil)  // a surrogate
    }

    @Test("depth, element count and attributes per element are bounded; a name of colons is refused")
    func boundsHold() {
        func nested(_ depth: Int) -> Data { Data((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8) }
        #expect(DAVElement.parse(nested(32)) != nil)
        #expect(DAVElement.parse(nested(33)) == nil)
        #expect(DAVElement.parse(nested(5_000), maximumDepth: 5_000) != nil, "no recursion: depth costs no stack")
        let wide = Data(("<a>" + String(repeating: "<b/>", count: 1_000) + "</a>").utf8)
        #expect(DAVElement.parse(wide, maximumElements: 1_001) != nil)
        #expect(DAVElement.parse(wide, maximumElements: 1_000) == nil)
        let attributes = { (count: Int) in Data(("<a" + (0..<count).map { " b\($0)=\"\"" }.joined() + "/>").utf8) }
        #expect(DAVElement.parse(attributes(256)) != nil)
        #expect(DAVElement.parse(attributes(257)) == nil)
        // Refused, as before; what changed is its cost (split at every colon it was a million
        // slices first), which this does not measure.
        #expect(DAVElement.parse(Data(("<" + String(repeating: ":", count: 1_000_000) + "/>").utf8)) == nil)
    }

    /// What a hostile answer can declare within its bytes costs time in proportion: many
    /// attributes on one element, many namespaces in scope. (Compared pairwise or scanned per
    /// element, these 100 000 took minutes.)
    @Test("many namespaces in scope and many references: read in time proportional to them")
    func manyDeclarationsCostLinearTime() throws {
        // 250 elements of 200 declarations each, nested: 50 000 prefixes in scope at the deepest.
        let declarations = { (level: Int) in (0..<200).map { " xmlns:p\(level)x\($0)=\"urn:\(level)x\($0)\"" }.joined() }
        let opening = (0..<250).map { "<e\(declarations($0))>" }.joined()
        let closing = String(repeating: "</e>", count: 250)
        let children = String(repeating: "<p0x0:b>&#9;&amp;</p0x0:b>", count: 100_000)
        let document = Data("\(opening)\(children)\(closing)".utf8)
        let started = ContinuousClock.now
        let root = try #require(DAVElement.parse(document, maximumDepth: 300, maximumElements: 200_000))
        var deepest = root
        while let inner = deepest.children.first, inner.name == "e" { deepest = inner }
        #expect(deepest.children.count == 100_000 && deepest.children.allSatisfy { $0.namespace == "urn:0x0" && $0.text == "\t&" })
        #expect(ContinuousClock.now - started < .seconds(20), "quadratic: \(ContinuousClock.now - started)")
    }

    /// Documents libxml2 reads, each read the same here: the fixtures above and the answers the
    /// sync asks for, and random changes of them (what this reader takes, libxml2 takes too).
    @Test("against libxml2: the same elements wherever this reader reads a document")
    func agreesWithLibxml2() throws {
        let documents = [Self.multistatus,
                         #"<d:a xmlns:d="DAV:" xmlns:x="urn:x"><d:b xmlns:d="urn:other"/><c xmlns="urn:c"><e xmlns=""/><x:f/></c></d:a>"#,
                         #"<a>&lt;&gt;&amp;&quot;&apos;&#65;&#x1F642;<b name="&lt;x y"/> tail </a>"#]
        for document in documents {
            let ours = try #require(DAVElement.parse(Data(document.utf8)))
            #expect(ours == Libxml2.parse(Data(document.utf8)))
        }
        var generator = SplitMix64(seed: 57)
        let alphabet = Array("<>/&;:=\"' !-?[]xmlnsabdDAV#\r\n".utf8)
        var agreed = 0
        for _ in 0..<3_000 {
            var bytes = Array(documents.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                default: bytes[at] = alphabet.randomElement(using: &generator)!
                }
            }
            guard let ours = DAVElement.parse(bytes) else { continue }
            let theirs = Libxml2.parse(Data(bytes))
            #expect(ours == theirs, "\(Self.difference(ours, theirs) ?? "") in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            agreed += 1
        }
        #expect(agreed > 100, "random changes left enough documents readable to compare")
    }
}

extension XMLReaderTests {
    /// Where two trees first differ, as a path of names, and how.
    static func difference(_ ours: DAVElement, _ theirs: DAVElement?, at path: String = "") -> String? {
        guard let theirs else { return "libxml2 refused it" }
        let here = path + "/" + ours.name
        if ours.namespace != theirs.namespace || ours.name != theirs.name { return "\(here): \(ours.namespace) \(ours.name) ≠ \(theirs.namespace) \(theirs.name)" }
        if ours.text != theirs.text { return "\(here): text \(ours.text.debugDescription) ≠ \(theirs.text.debugDescription)" }
        if ours.children.count != theirs.children.count { return "\(here): \(ours.children.count) children ≠ \(theirs.children.count)" }
        return zip(ours.children, theirs.children).lazy.compactMap { difference($0, $1, at: here) }.first
    }
}

/// libxml2 through FoundationXML (what the server read WebDAV with before), building the same
/// tree by the same rule (an element with a `name` attribute has that for its text): the oracle.
private enum Libxml2 {
    static func parse(_ data: Data) -> DAVElement? {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        return parser.parse() ? reader.root : nil
    }

    private final class Reader: NSObject, XMLParserDelegate {
        /// Each open element, and whether its text is its `name` attribute (then kept as it is).
        var stack: [(element: DAVElement, named: Bool)] = []
        var root: DAVElement?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append((DAVElement(namespace: namespaceURI ?? "", name: elementName, text: attributes["name"] ?? ""), attributes["name"] != nil))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let open = stack.last, !open.named else { return }
            stack[stack.count - 1].element.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self)) }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let done = stack.popLast()?.element else { return }
            if stack.isEmpty { root = done } else { stack[stack.count - 1].element.children.append(done) }
        }
    }
}
