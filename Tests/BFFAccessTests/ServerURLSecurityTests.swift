import BFFAccess
import Testing

@Suite("Server addresses")
struct ServerURLSecurityTests {
    @Test("plain http is insecure unless it stays on this machine; a name that only looks like 127.x is not loopback",
          arguments: [
              ("http://127.0.0.1:7450", false), ("http://127.1.2.3", false), ("http://localhost:7450", false), ("http://[::1]:7450", false),
              ("http://127.attacker.example:7450", true), ("http://127.0.0.1.nip.io", true), ("http://team.example", true),
              ("https://team.example", false),
          ])
    func insecure(url: String, insecure: Bool) throws {
        #expect(try ServerURL(url).isInsecure == insecure)
    }
}
