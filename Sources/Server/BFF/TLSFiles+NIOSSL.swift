import NIOSSL

extension TLSFiles {
    /// The server's TLS set-up: the chain and key read now, so a wrong path or a key that does not
    /// fit fails the start with a clear error instead of the first connection.
    func serverConfiguration() throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw TLSFilesError(file: certificate, reason: "not a PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw TLSFilesError(file: certificate, reason: "holds no certificate") }
        do {
            key = try NIOSSLPrivateKey(file: privateKey, format: .pem)
        } catch {
            throw TLSFilesError(file: privateKey, reason: "not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)
        )
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}

/// A certificate or key file that cannot be used.
package struct TLSFilesError: Error, CustomStringConvertible {
    package let file: String
    package let reason: String
    package var description: String { "\(file): \(reason)" }
}
