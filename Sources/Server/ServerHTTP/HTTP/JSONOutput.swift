import ServerAPI

/// The API's hot response types written straight to JSON bytes.
///
/// Foundation's `JSONEncoder` goes through boxed, generic containers: profiling `GET
/// /api/todo/items` (100 items) showed it took over a quarter of the server's time. These writers
/// produce the same JSON (every key always present, `null` for nil, but for the fields added later,
/// which are left out as `JSONEncoder` leaves them) at a fraction of the cost; a
/// test decodes their output with `JSONDecoder` and compares, hostile strings included.
package protocol JSONWritable: Encodable {
    func write(to json: inout JSONOutput)
}

/// A JSON text being written: objects, arrays and escaped strings.
package struct JSONOutput {
    private(set) var bytes: [UInt8] = []
    /// Whether the object being written has no member yet (no comma before the next).
    private var atFirstMember = true

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// `{…}` with the members `body` writes with `field(_:_:)`.
    mutating func object(_ body: (inout JSONOutput) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        let outer = atFirstMember
        atFirstMember = true
        body(&self)
        atFirstMember = outer
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { string(value) } else { raw("null") }
    }

    /// A member only when there is a value: the fields added to a type later, which older clients
    /// never saw.
    mutating func field(_ name: StaticString, ifPresent value: String?) {
        if let value { field(name, value) }
    }

    /// A member only when there are numbers, as `field(_:ifPresent:)` for text.
    mutating func field(_ name: StaticString, ifPresent values: [Int]?) {
        guard let values else { return }
        key(name)
        raw("[" + values.map(String.init).joined(separator: ",") + "]")
    }

    /// A member only when there is a number, as `field(_:ifPresent:)` for text.
    mutating func field(_ name: StaticString, ifPresent value: Int64?) {
        if let value { field(name, value) }
    }

    mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        raw(String(value))
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    mutating func field<Element: JSONWritable>(_ name: StaticString, _ elements: [Element]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element.write(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func key(_ name: StaticString) {
        if !atFirstMember { bytes.append(UInt8(ascii: ",")) }
        atFirstMember = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    private mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else as UTF-8.
    /// Runs of bytes that need no escape (nearly all text) are copied in one go.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension Page: JSONWritable where Item: JSONWritable {
    package func write(to json: inout JSONOutput) {
        json.object { json in
            json.field("items", items)
            json.field("next", next)
        }
    }
}

extension TodoItem: JSONWritable {
    package func write(to json: inout JSONOutput) {
        json.object { json in
            json.field("id", id)
            json.field("title", title)
            json.field("notes", notes)
            json.field("done", done)
            json.field("due", due?.iso)
            json.field("uid", ifPresent: uid)
            if let priority { json.field("priority", Int64(priority)) }
            json.field("list", ifPresent: list)
        }
    }
}

extension CalendarEvent: JSONWritable {
    package func write(to json: inout JSONOutput) {
        json.object { json in
            json.field("id", id)
            json.field("title", title)
            json.field("start", start.iso)
            json.field("end", end.iso)
            json.field("allDay", allDay)
            json.field("uid", ifPresent: uid)
            json.field("recurrence", ifPresent: recurrence)
            json.field("timeZone", ifPresent: timeZone)
            json.field("location", ifPresent: location)
            json.field("description", ifPresent: description)
            json.field("instanceStart", ifPresent: instanceStart?.iso)
            json.field("reminders", ifPresent: reminders)
            if let calendar { json.field("calendar", calendar) }
            json.field("colour", ifPresent: colour)
            if let readOnly { json.field("readOnly", readOnly) }
        }
    }
}

extension ChatMessage: JSONWritable {
    package func write(to json: inout JSONOutput) {
        json.object { json in
            json.field("id", id)
            json.field("channel", channel)
            json.field("author", author)
            json.field("text", text)
            json.field("sentAt", sentAt)
        }
    }
}
