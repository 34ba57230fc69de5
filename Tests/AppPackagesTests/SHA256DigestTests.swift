import AppPackages
import Crypto
import Testing

@Suite("SHA-256, written out (the dashboard links no crypto library)")
struct SHA256DigestTests {
    @Test("FIPS 180-2's examples, the empty message and a million a's", arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ])
    func standardExamples(message: String, digest: String) {
        #expect(SHA256Digest.hex(of: Array(message.utf8)) == digest)
    }

    /// Every length around the padding's edges (55, 56, 63, 64 bytes …) and beyond, against
    /// swift-crypto's SHA-256 (the test links it; the dashboard does not).
    @Test func everyLengthMatchesSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = SHA256.hash(data: bytes).map { byte in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            }.joined()
            #expect(SHA256Digest.hex(of: bytes) == expected, "length \(length)")
        }
    }
}
