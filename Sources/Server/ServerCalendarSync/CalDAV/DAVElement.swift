import Foundation
import FoundationXML

/// An element of a WebDAV answer (RFC 4918's XML), by namespace and local name, with its text and
/// children: what a multistatus is read into before its responses are taken out.
struct DAVElement: Sendable, Equatable {
    let namespace: String
    let name: String
    var text = ""
    var children: [DAVElement] = []

    static let dav = "DAV:"
    static let calDAV = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"
    static let apple = "http://apple.com/ns/ical/"

    /// The first child named so.
    func child(_ namespace: String, _ name: String) -> DAVElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    func children(_ namespace: String, _ name: String) -> [DAVElement] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// The element at the end of a path of DAV: names (`["propstat", "prop"]`).
    func path(_ names: [(String, String)]) -> DAVElement? {
        names.reduce(self as DAVElement?) { element, step in element?.child(step.0, step.1) }
    }

    /// Its text without surrounding white space.
    var value: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// `data` read as XML: nil when it is not, is nested deeper than `maximumDepth`, holds more
    /// than `maximumElements` elements, or more text than it has bytes (which only entities
    /// declared to expand can make: a billion laughs stops there). A hostile server's answer is
    /// bounded in bytes by the call, and in work and memory here. No external entity or DTD is read.
    static func parse(_ data: Data, maximumDepth: Int = 32, maximumElements: Int = 500_000) -> DAVElement? {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let reader = Reader(maximumDepth: maximumDepth, maximumElements: maximumElements, maximumText: data.count)
        parser.delegate = reader
        guard parser.parse(), !reader.failed else { return nil }
        return reader.root
    }

    private final class Reader: NSObject, XMLParserDelegate {
        let maximumDepth: Int
        let maximumElements: Int
        let maximumText: Int
        var stack: [DAVElement] = []
        var root: DAVElement?
        var failed = false
        var count = 0
        var textBytes = 0

        init(maximumDepth: Int, maximumElements: Int, maximumText: Int) {
            self.maximumDepth = maximumDepth
            self.maximumElements = maximumElements
            self.maximumText = maximumText
        }

        /// Adds text to the open element, or stops the parse past `maximumText`.
        private func append(_ text: String, _ parser: XMLParser) {
            guard !stack.isEmpty, !failed else { return }
            textBytes += text.utf8.count
            guard textBytes <= maximumText else {
                failed = true
                parser.abortParsing()
                return
            }
            stack[stack.count - 1].text += text
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            count += 1
            guard stack.count < maximumDepth, count <= maximumElements else {
                failed = true
                parser.abortParsing()
                return
            }
            var element = DAVElement(namespace: namespaceURI ?? "", name: elementName)
            // The one attribute CalDAV answers carry that matters here: `<C:comp name="VEVENT"/>`.
            if let name = attributes["name"] { element.text = name }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { append(string, parser) }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { append(String(decoding: block, as: UTF8.self), parser) }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let done = stack.popLast() else { return }
            if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }
    }
}
