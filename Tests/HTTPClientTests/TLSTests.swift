import BFF
import BFFTesting
import Foundation
import HTTPClient
import ServerAPI
import TestSupport
import Testing

/// `serve --tls-cert --tls-key`: the server speaks HTTPS with a certificate made here, and the
/// client talks to it only when it trusts that certificate.
@Suite("TLS between the client and a team server")
struct TLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, made by openssl in `directory`.
    static func makeCertificate(in directory: URL) async throws -> TLSFiles {
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try await Command.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                          "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
                                          "-addext", "subjectAltName=IP:127.0.0.1"])
        try #require(made.status == 0, "openssl could not make a certificate: \(made.output)")
        return TLSFiles(certificate: certificate, privateKey: key)
    }

    @Test("a client that trusts the certificate logs in and reads over HTTPS; one that does not, or plain HTTP, gets nowhere")
    func httpsOnly() async throws {
        let bff = try LiveBFF()
        defer { bff.remove() }
        try await bff.addUsers(["ann"])
        let tls = try await Self.makeCertificate(in: bff.directory)
        let server = try await bff.start(tls: tls)
        let https = "https://127.0.0.1:\(server.port)"

        let trusting = HTTPClient(endpoint: .init(baseURL: https, trustedCertificates: tls.certificate))
        let token = try await trusting.post(APIPath.authToken, body: TokenRequest(username: "ann", password: "pw-ann"), as: TokenResponse.self)
        let reader = HTTPClient(endpoint: .init(baseURL: https, trustedCertificates: tls.certificate), token: token.token)
        #expect(try await reader.get(APIPath.todoItems, as: Page<TodoItem>.self).items.isEmpty)

        // The system's certificate authorities do not know this certificate.
        let untrusting = HTTPClient(endpoint: .init(baseURL: https))
        await #expect(throws: HTTPClientError.self) {
            _ = try await untrusting.post(APIPath.authToken, body: TokenRequest(username: "ann", password: "pw-ann"), as: TokenResponse.self)
        }
        // Plain HTTP to the TLS port is not answered as HTTP.
        let plain = HTTPClient(endpoint: .init(baseURL: "http://127.0.0.1:\(server.port)"))
        await #expect(throws: HTTPClientError.self) {
            _ = try await plain.post(APIPath.authToken, body: TokenRequest(username: "ann", password: "pw-ann"), as: TokenResponse.self)
        }
        await server.stop()
    }

    @Test("a certificate or key file that cannot be used stops the start with its name")
    func badFiles() async throws {
        let bff = try LiveBFF()
        defer { bff.remove() }
        let tls = try await Self.makeCertificate(in: bff.directory)
        let missing = TLSFiles(certificate: bff.directory.appendingPathComponent("none.pem").path, privateKey: tls.privateKey)
        await #expect(throws: TLSFilesError.self) { _ = try await bff.start(tls: missing) }
        let swapped = TLSFiles(certificate: tls.privateKey, privateKey: tls.certificate)
        await #expect(throws: TLSFilesError.self) { _ = try await bff.start(tls: swapped) }
    }
}
