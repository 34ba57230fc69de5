import PlainText

/// An element of a WebDAV answer (RFC 4918's XML), by namespace and local name, with its text and
/// children: what a multistatus is read into before its responses are taken out.
public struct DAVElement: Sendable, Equatable {
    public let namespace: String
    public let name: String
    /// Its text (the pieces between its children, joined), or the value of its `name` attribute:
    /// the one attribute CalDAV answers carry that matters here (`<C:comp name="VEVENT"/>`).
    public var text = ""
    public var children: [DAVElement] = []

    public static let dav = "DAV:"
    public static let calDAV = "urn:ietf:params:xml:ns:caldav"
    public static let calendarServer = "http://calendarserver.org/ns/"
    public static let apple = "http://apple.com/ns/ical/"

    public init(namespace: String, name: String, text: String = "", children: [DAVElement] = []) {
        self.namespace = namespace
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child named so.
    public func child(_ namespace: String, _ name: String) -> DAVElement? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    public func children(_ namespace: String, _ name: String) -> [DAVElement] {
        children.filter { $0.namespace == namespace && $0.name == name }
    }

    /// The element at the end of a path of names (`[(dav, "propstat"), (dav, "prop")]`).
    public func path(_ names: [(String, String)]) -> DAVElement? {
        names.reduce(self as DAVElement?) { element, step in element?.child(step.0, step.1) }
    }

    /// Its text without surrounding white space.
    public var value: String { text.trimmingWhitespace(andNewlines: true) }

    /// `bytes` read as XML: nil when they are not well-formed XML 1.0 in UTF-8 with namespaces,
    /// when they declare a document type, or when they nest deeper than `maximumDepth`, hold
    /// more than `maximumElements` elements or give one more than 256 attributes. A hostile server's answer is bounded in bytes by the
    /// call; here in work and memory: with no document type there are no entities of its own, so
    /// the text is never longer than the answer.
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = 32, maximumElements: Int = 500_000) -> DAVElement? {
        var reader = XMLReader(Array(bytes), maximumDepth: maximumDepth, maximumElements: maximumElements)
        return reader.document()
    }
}
