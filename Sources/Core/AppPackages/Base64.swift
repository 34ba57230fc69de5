/// Standard base64 (RFC 4648, section 4, padded), as keys and signatures are written: decoding
/// takes the canonical spelling only (no spaces, the padding there, unused bits zero), so one
/// value has one text.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0..<4 {
                text.append(index <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(index)) & 63)] : UInt8(ascii: "="))
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` spells; nil when it is not canonical base64.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 4 * 3)
        for start in stride(from: 0, to: characters.count, by: 4) {
            let group = characters[start..<start + 4]
            let padding = group.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2, start + 4 == characters.count || padding == 0 else { return nil }
            var value: UInt32 = 0
            for (index, character) in group.prefix(4 - padding).enumerated() {
                guard let digit = alphabet.firstIndex(of: character) else { return nil }
                value |= UInt32(digit) << (18 - 6 * UInt32(index))
            }
            let kept = 3 - padding
            // Bits past the last byte must be zero, or two texts would spell one value.
            guard value & ((UInt32(1) << (8 * UInt32(padding))) &- 1) == 0 else { return nil }
            for index in 0..<kept { bytes.append(UInt8(truncatingIfNeeded: value >> (16 - 8 * UInt32(index)))) }
        }
        return bytes
    }
}
