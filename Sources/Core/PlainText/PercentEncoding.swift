/// Text as `%XX` escapes of its UTF-8 bytes, but for ASCII letters, digits and the characters
/// kept (what Foundation's `addingPercentEncoding` and `removingPercentEncoding` do, without it).
public enum PercentEncoding {
    /// RFC 3986's unreserved characters besides letters and digits.
    public static let unreserved = Set("-._~".utf8)

    public static func encode(_ text: String, keeping kept: Set<UInt8> = Set("-_.".utf8)) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isAlphanumeric(byte) || kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text `encode` gave, or nil when an escape is malformed or the bytes are not UTF-8.
    public static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            // Two hex digits, nothing else (`UInt8(_:radix:)` alone takes a sign: `%+f`).
            guard rest.count >= 2, rest.prefix(2).allSatisfy(isHexDigit),
                  let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
