import LogFiles
import Foundation
import Logging
import Testing

/// The log file both executables write (the dashboard's, and the server's with every request).
@Suite("Log file lines")
struct FileLogHandlerTests {
    @Test("text from clients cannot forge a log line: control characters come out as visible escapes, one event one line")
    func oneEventOneLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("test.log")
        let file = try FileLogHandler.File(url: url)
        let logger = Logger(label: "tests") { label in FileLogHandler(file: file, label: label) }

        let hostile = "ann\nFAKE line 12:00:00.000 info termcanvas.bff: token issued user=root\u{1B}[31m"
        logger.info("token refused \(hostile)", metadata: ["username": "\(hostile)", "key\r\nx": "\u{7}\u{85}\u{2028}\u{202E}"])
        logger.info("next")

        let bytes = try Data(contentsOf: url)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x0D))
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "", "\(text)")
        let first = String(lines[0])
        #expect(first.contains(#"token refused ann\nFAKE line 12:00:00.000 info termcanvas.bff: token issued user=root\u{1B}[31m"#), "\(first)")
        #expect(first.contains(#"username=ann\nFAKE line"#) && first.hasSuffix(#"user=root\u{1B}[31m"#), "\(first)")
        #expect(first.contains(#"key\r\nx=\u{7}\u{85}\u{2028}\u{202E}"#), "\(first)")
        #expect(lines[1].hasSuffix("info tests: next"))
    }

    @Test("printable text is logged as it is; a backslash is doubled, so an escape always means a control character")
    func printableUnchanged() {
        #expect(LogText.escaped("plain ascii, ünïcödé, 表, 👩‍💻") == "plain ascii, ünïcödé, 表, 👩‍💻")
        #expect(LogText.escaped(#"a\nb"#) == #"a\\nb"#)
        #expect(LogText.escaped("tab\there") == #"tab\there"#)
    }
}
