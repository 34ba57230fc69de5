/// Reads XML 1.0 with namespaces (what WebDAV speaks) into `DAVElement`s, from UTF-8 bytes.
///
/// Written here rather than taken from FoundationXML, whose libxml2 brings the system's ICU
/// along (35 MB of a 134 MB server image) for the few answers a CalDAV sync reads. What WebDAV
/// answers use is read in full: the XML declaration, elements, attributes, namespaces and their
/// scopes, the five predefined entities and character references, CDATA, comments, processing
/// instructions, line ends made `\n` outside CDATA (inside, kept as sent: as libxml2 does, so
/// iCalendar's CR LF survive). A document type declaration is refused (no CalDAV server
/// sends one), so no entity can expand and nothing outside the bytes is ever read. Anything not
/// well-formed is refused as a whole, as a conforming parser must.
struct XMLReader {
    private let bytes: [UInt8]
    private var index = 0
    private let maximumDepth: Int
    private let maximumElements: Int
    /// Attributes one element may carry: WebDAV's carry a few (namespaces, `name`).
    private static let maximumAttributes = 256
    private var elementCount = 0
    /// The namespaces each prefix in scope is bound to, innermost last; [] is the default
    /// namespace. By prefix, so a lookup costs the same however many an answer declares.
    private var bindings: [[UInt8]: [String]] = [Array("xml".utf8): ["http://www.w3.org/XML/1998/namespace"]]
    private var open: [OpenElement] = []

    private struct OpenElement {
        var element: DAVElement
        let qualifiedName: ArraySlice<UInt8>
        /// The prefixes it bound, unbound when it closes.
        let bound: [[UInt8]]
        var text: [UInt8] = []
        let hasNameAttribute: Bool
    }

    private struct Malformed: Error {}

    init(_ bytes: [UInt8], maximumDepth: Int, maximumElements: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
    }

    /// The document's root element, or nil when the bytes are not a well-formed document.
    mutating func document() -> DAVElement? {
        guard Self.isValidText(bytes) else { return nil }
        do {
            if starts(with: "\u{FEFF}") { index += 3 }  // a byte order mark
            if starts(with: "<?xml"), index + 5 < bytes.count, Self.isSpace(bytes[index + 5]) { try declaration() }
            try miscellany()
            guard starts(with: "<"), !starts(with: "<!") else { return nil }
            let root = try element()
            try miscellany()
            return index == bytes.count ? root : nil
        } catch {
            return nil
        }
    }

    // MARK: - Structure

    /// The root element and everything inside it, read without recursion so depth costs no stack.
    private mutating func element() throws -> DAVElement {
        if let done = try startTag() { return done }
        while true {
            if starts(with: "</") {
                if let done = try endTag() { return done }
            } else if starts(with: "<![CDATA[") {
                index += 9
                let end = try find("]]>")
                appendText(bytes[index..<end], normalizingLineEnds: false)  // as libxml2 gives CDATA
                index = end + 3
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<") {
                if let done = try startTag() { return done }
            } else if starts(with: "&") {
                let scalar = try reference()
                if !open.isEmpty { UTF8.encode(scalar) { open[open.count - 1].text.append($0) } }
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<"), bytes[index] != UInt8(ascii: "&") { index += 1 }
                guard index < bytes.count else { throw Malformed() }  // the document ended inside an element
                let text = bytes[start..<index]
                if Self.firstIndex(of: "]]>", in: text) != nil { throw Malformed() }
                appendText(text, normalizingLineEnds: true)
            }
        }
    }

    /// `<name attributes>` or `<name attributes/>`: the element opened (and closed, if empty);
    /// it is returned when it was the root, closed.
    private mutating func startTag() throws -> DAVElement? {
        index += 1
        let qualifiedName = try name()
        elementCount += 1
        guard elementCount <= maximumElements, open.count < maximumDepth else { throw Malformed() }
        var attributes: [(name: ArraySlice<UInt8>, value: [UInt8])] = []
        var seen = Set<ArraySlice<UInt8>>()
        while true {
            let hadSpace = skipSpaces()
            if starts(with: "/>") || starts(with: ">") { break }
            guard hadSpace else { throw Malformed() }
            let attributeName = try name()
            skipSpaces()
            guard starts(with: "=") else { throw Malformed() }
            index += 1
            skipSpaces()
            let value = try attributeValue()
            guard seen.insert(attributeName).inserted, seen.count <= Self.maximumAttributes else { throw Malformed() }
            attributes.append((attributeName, value))
        }
        var bound: [[UInt8]] = []
        var nameAttribute: String?
        let names = try attributes.map { try Self.split($0.name) }
        for (attribute, (prefix, local)) in zip(attributes, names) {
            var uri: String { String(decoding: attribute.value, as: UTF8.self) }
            if prefix == nil, local.elementsEqual("xmlns".utf8) {
                bindings[[], default: []].append(uri)
                bound.append([])
            } else if let prefix, prefix.elementsEqual("xmlns".utf8) {
                // A prefix cannot be undeclared, nor xml or xmlns bound, in XML Namespaces 1.0.
                guard !attribute.value.isEmpty, !local.elementsEqual("xmlns".utf8), !local.elementsEqual("xml".utf8) else { throw Malformed() }
                bindings[Array(local), default: []].append(uri)
                bound.append(Array(local))
            } else if prefix == nil, local.elementsEqual("name".utf8) {
                nameAttribute = uri
            }
        }
        // Attributes' prefixes are bound like elements' (their namespaces matter nowhere here).
        for case let (prefix?, _) in names where !prefix.elementsEqual("xmlns".utf8) { _ = try namespace(of: prefix) }
        let (prefix, local) = try Self.split(qualifiedName)
        let element = DAVElement(namespace: try namespace(of: prefix ?? []), name: String(decoding: local, as: UTF8.self),
                                 text: nameAttribute ?? "")
        open.append(OpenElement(element: element, qualifiedName: qualifiedName, bound: bound, hasNameAttribute: nameAttribute != nil))
        if starts(with: "/>") {
            index += 2
            return close()
        }
        index += 1
        return nil
    }

    /// `</name>`: the innermost element closed; it is returned when it was the root.
    private mutating func endTag() throws -> DAVElement? {
        index += 2
        let qualifiedName = try name()
        skipSpaces()
        guard starts(with: ">"), let innermost = open.last, innermost.qualifiedName == qualifiedName else { throw Malformed() }
        index += 1
        return close()
    }

    /// Closes the innermost element: it is returned when it was the root.
    private mutating func close() -> DAVElement? {
        var done = open.removeLast()
        for prefix in done.bound { bindings[prefix]?.removeLast() }
        if !done.hasNameAttribute { done.element.text = String(decoding: done.text, as: UTF8.self) }
        guard !open.isEmpty else { return done.element }
        open[open.count - 1].element.children.append(done.element)
        return nil
    }

    private mutating func appendText(_ text: ArraySlice<UInt8>, normalizingLineEnds: Bool) {
        guard !open.isEmpty else { return }
        guard normalizingLineEnds, text.contains(13) else { return open[open.count - 1].text.append(contentsOf: text) }
        var previous: UInt8 = 0
        for byte in text {
            if byte == 13 {
                open[open.count - 1].text.append(10)
            } else if !(byte == 10 && previous == 13) {
                open[open.count - 1].text.append(byte)
            }
            previous = byte
        }
    }

    /// The namespace a prefix is bound to; "" for no prefix and no default namespace.
    private func namespace(of prefix: some Collection<UInt8>) throws -> String {
        if let uri = bindings[Array(prefix)]?.last { return uri }
        guard prefix.isEmpty else { throw Malformed() }  // an unbound prefix
        return ""
    }

    // MARK: - Prolog and miscellany

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, its parts in that order, the
    /// version required: only UTF-8 (or its ASCII subset) is read.
    private mutating func declaration() throws {
        index += 5
        let order = ["version", "encoding", "standalone"]
        var next = 0
        while true {
            let hadSpace = skipSpaces()
            if starts(with: "?>") { break }
            guard hadSpace else { throw Malformed() }
            let part = String(decoding: try name(), as: UTF8.self)
            skipSpaces()
            guard starts(with: "=") else { throw Malformed() }
            index += 1
            skipSpaces()
            let value = String(decoding: try attributeValue(), as: UTF8.self)
            guard let position = order[next...].firstIndex(of: part), position == 0 || next > 0 else { throw Malformed() }
            next = position + 1
            let valid = switch part {
            case "version": value.hasPrefix("1.") && value.count > 2 && value.utf8.dropFirst(2).allSatisfy { Self.digitValue($0, radix: 10) != nil }
            case "encoding": ["utf-8", "utf8", "us-ascii", "ascii"].contains(value.lowercased())
            default: value == "yes" || value == "no"
            }
            guard valid else { throw Malformed() }
        }
        guard next > 0 else { throw Malformed() }
        index += 2
    }

    /// White space, comments and processing instructions; a document type is refused.
    private mutating func miscellany() throws {
        while true {
            skipSpaces()
            if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!") {
                throw Malformed()  // <!DOCTYPE: entities of its own are how a billion laughs begins
            } else {
                return
            }
        }
    }

    private mutating func comment() throws {
        index += 4
        let end = try find("--")
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else { throw Malformed() }
        index = end + 3
    }

    private mutating func processingInstruction() throws {
        index += 2
        let target = try name()
        // A declaration not at the start, or a target XML reserves ([Xx][Mm][Ll]).
        guard !(target.count == 3 && String(decoding: target, as: UTF8.self).lowercased() == "xml") else { throw Malformed() }
        let end = try find("?>")
        index = end + 2
    }

    // MARK: - Tokens

    /// A name (`d:href`), its bytes. Non-ASCII letters are taken as name characters; the bytes were
    /// checked as UTF-8 before.
    private mutating func name() throws -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index], first: index == start) { index += 1 }
        guard index > start else { throw Malformed() }
        return bytes[start..<index]
    }

    /// A quoted attribute value, its references decoded and its white space made spaces (XML's
    /// attribute value normalisation for CDATA attributes).
    private mutating func attributeValue() throws -> [UInt8] {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { throw Malformed() }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw Malformed() }
            let byte = bytes[index]
            if byte == quote { break }
            if byte == UInt8(ascii: "<") { throw Malformed() }
            if byte == UInt8(ascii: "&") {
                UTF8.encode(try reference()) { value.append($0) }
                continue
            }
            if byte == 13, index + 1 < bytes.count, bytes[index + 1] == 10 { index += 1 }
            value.append(Self.isSpace(byte) ? UInt8(ascii: " ") : byte)
            index += 1
        }
        index += 1
        return value
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NNN;` or `&#xHH;`: the character it stands
    /// for. Any other entity is undeclared, there being no document type: not well-formed.
    private mutating func reference() throws -> Unicode.Scalar {
        index += 1
        guard let semicolon = bytes[index...].prefix(32).firstIndex(of: UInt8(ascii: ";")) else { throw Malformed() }
        let body = bytes[index..<semicolon]
        index = semicolon + 1
        for (name, character) in Self.predefinedEntities where body.elementsEqual(name.utf8) { return character }
        guard body.first == UInt8(ascii: "#") else { throw Malformed() }
        var digits = body.dropFirst()
        let radix: UInt32 = digits.first == UInt8(ascii: "x") ? 16 : 10
        if radix == 16 { digits = digits.dropFirst() }
        guard !digits.isEmpty else { throw Malformed() }
        var value: UInt32 = 0
        for digit in digits {
            guard let digitValue = Self.digitValue(digit, radix: radix) else { throw Malformed() }
            value = value * radix + digitValue
            guard value <= 0x10FFFF else { throw Malformed() }
        }
        guard Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else { throw Malformed() }
        return scalar
    }

    private static let predefinedEntities: [(String, Unicode.Scalar)] = [("amp", "&"), ("lt", "<"), ("gt", ">"), ("quot", "\""), ("apos", "'")]

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    @discardableResult
    private mutating func skipSpaces() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    /// Whether the bytes from the current position begin with `text` (a literal: no allocation
    /// per token).
    private func starts(with text: StaticString) -> Bool {
        text.withUTF8Buffer { prefix in
            bytes.count - index >= prefix.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
        }
    }

    /// Where `text` next begins, from the current position.
    private func find(_ text: StaticString) throws -> Int {
        guard let found = Self.firstIndex(of: text, in: bytes[index...]) else { throw Malformed() }
        return found
    }

    private static func firstIndex(of needle: StaticString, in haystack: ArraySlice<UInt8>) -> Int? {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first, haystack.count >= needle.count else { return nil }
            var start = haystack.startIndex
            let last = haystack.endIndex - needle.count
            while start <= last {
                guard let candidate = haystack[start...last].firstIndex(of: first) else { return nil }
                if haystack[candidate..<(candidate + needle.count)].elementsEqual(needle) { return candidate }
                start = candidate + 1
            }
            return nil
        }
    }

    /// A qualified name's prefix and local part; a name with an empty part or two colons is not
    /// namespace-well-formed.
    private static func split(_ qualifiedName: ArraySlice<UInt8>) throws -> (prefix: ArraySlice<UInt8>?, local: ArraySlice<UInt8>) {
        guard let colon = qualifiedName.firstIndex(of: UInt8(ascii: ":")) else { return (nil, qualifiedName) }
        let prefix = qualifiedName[..<colon]
        let local = qualifiedName[(colon + 1)...]
        guard !prefix.isEmpty, !local.isEmpty, !local.contains(UInt8(ascii: ":")) else { throw Malformed() }
        return (prefix, local)
    }

    // MARK: - Characters

    /// UTF-8 throughout, and no control character XML does not allow (only tab, line feed and
    /// carriage return below the space).
    private static func isValidText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(where: { $0 < 0x20 && $0 != 9 && $0 != 10 && $0 != 13 }) else { return false }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): guard isXMLCharacter(scalar.value) else { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 9 || value == 10 || value == 13 || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
            || (0x10000...0x10FFFF).contains(value)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 9 || byte == 10 || byte == 13 }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...: true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }
}
