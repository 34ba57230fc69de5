/// Text as `%XX` escapes of its UTF-8 bytes, but for ASCII letters, digits and the characters
/// kept (what Foundation's `addingPercentEncoding` and `removingPercentEncoding` do, without it).
public enum PercentEncoding {
    public static func encode(_ text: String, keeping kept: Set<UInt8> = Set("-_.".utf8)) -> String {
        var result = ""
        for byte in text.utf8 {
            let plain = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || kept.contains(byte)
            if plain {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return result
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
            guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
