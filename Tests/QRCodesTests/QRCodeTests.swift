import Foundation
import QRCodes
import Testing
import TestSupport

/// The QR codes the sign-in draws, module for module against segno's (a QR encoder of the field,
/// pinned in the tests' Python environment), for every mask and versions 1 to 10.
@Suite("QR codes")
struct QRCodeTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/oidc-provider/provider").path

    static func reference(_ text: String, mask: Int) async throws -> [String] {
        let result = try await Command.run([script, "qr", text, "\(mask)"])
        try #require(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init).filter { $0.allSatisfy { $0 == "0" || $0 == "1" } }
    }

    static func rows(_ code: QRCode) -> [String] {
        (0..<code.size).map { y in String((0..<code.size).map { x in code[x, y] ? "1" : "0" }) }
    }

    @Test("each version 1–10 and each mask: the same modules as segno's", arguments: [
        "hi", "http://127.0.0.1:8000/o/device/", "https://login.example.com/realms/team/device?user_code=WDJB-MJHT",
        String(repeating: "https://idp.example.org/activate?code=ABCD-EFGH&x=", count: 2),
        String(repeating: "0123456789abcdef", count: 8), String(repeating: "z", count: 180), String(repeating: "é", count: 100),
    ])
    func matchesSegno(text: String) async throws {
        for mask in 0..<8 {
            let code = try #require(QRCode(bytes: Array(text.utf8), mask: mask))
            #expect(Self.rows(code) == (try await Self.reference(text, mask: mask)), "mask \(mask), version \(code.version)")
        }
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
        // The quiet zone's two lines, then the finder's top edge beneath four light modules.
        #expect(cells[0].allSatisfy { $0 == " " } && cells[1].allSatisfy { $0 == " " })
        #expect(cells[2].dropFirst(4).prefix(7) == "▄▄▄▄▄▄▄")
    }
}
