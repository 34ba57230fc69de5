import Foundation
import QRCodes
import Testing
import TestSupport

/// The QR codes the sign-in draws, read back by a decoder of the field (ZXing's C++ port, pinned
/// in the tests' Python environment) for every mask and versions 1 to 10.
@Suite("QR codes")
struct QRCodeTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/oidc-provider/provider").path

    /// What the decoder reads in each of `codes`, in one run of it.
    static func read(_ codes: [QRCode]) async throws -> [String] {
        let input = codes.map { code in
            (0..<code.size).map { y in String((0..<code.size).map { x in code[x, y] ? "1" : "0" }) }.joined(separator: "\n")
        }.joined(separator: "\n\n")
        let result = try await Command.run([script, "qr-read"], input: input + "\n")
        try #require(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test("each mask, versions 1 to 10, ASCII and not: read back as written", arguments: [
        "hi", "http://127.0.0.1:8000/o/device/", "https://login.example.com/realms/team/device?user_code=WDJB-MJHT",
        String(repeating: "https://idp.example.org/activate?code=ABCD-EFGH&x=", count: 2),
        String(repeating: "0123456789abcdef", count: 8), String(repeating: "z", count: 180), String(repeating: "é", count: 100),
    ])
    func readsBack(text: String) async throws {
        // Each forced mask, then the one of least penalty.
        let codes = (0..<8).compactMap { mask in QRCode(bytes: Array(text.utf8), mask: mask) } + [QRCode(text: text)].compactMap { $0 }
        try #require(codes.count == 9)
        let read = try await Self.read(codes)
        #expect(read == Array(repeating: text, count: codes.count), "version \(codes[0].version)")
    }

    @Test("the versions the lengths need, up to 213 bytes; nothing past that")
    func versions() {
        #expect(QRCode(text: "hi")?.version == 1)
        #expect(QRCode(text: String(repeating: "a", count: 14))?.version == 1)
        #expect(QRCode(text: String(repeating: "a", count: 15))?.version == 2)
        #expect(QRCode(text: String(repeating: "a", count: 213))?.version == 10)
        #expect(QRCode(text: String(repeating: "a", count: 214)) == nil)
    }

    @Test("drawn two rows a line, black on white, with a quiet zone of four modules")
    func text() throws {
        let code = try #require(QRCode(text: "hi"))
        let lines = QRText.lines(code)
        #expect(lines.count == (21 + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[30;47m") && $0.hasSuffix("\u{1B}[0m") })
        let cells = lines.map { $0.dropFirst(8).dropLast(4) }
        #expect(cells.allSatisfy { $0.count == 29 })
        // The quiet zone's two lines, then the finder's top rows (all dark, then dark, five light,
        // dark) after four light modules.
        #expect(cells[0].allSatisfy { $0 == " " } && cells[1].allSatisfy { $0 == " " })
        #expect(cells[2].prefix(11) == "    █▀▀▀▀▀█")
    }
}
