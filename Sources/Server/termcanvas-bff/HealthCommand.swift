import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// `termcanvas-bff health`: asks a running server whether it is up, for a container's health check
/// (the image has no curl) or a script: exit 0 when it answers, 1 when it does not.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Ask a running server whether it is up (its /health, or /ready), and exit 0 when it is.",
        discussion: """
            For a container's health check or a script. A server on this machine (127.0.0.1, ::1, localhost) \
            is asked over HTTPS without checking its certificate: what is asked is whether this machine's \
            server process answers, not who it is.
            """
    )

    @Option(help: ArgumentHelp("The server's address.", valueName: "URL"))
    var url = "http://127.0.0.1:7450"
    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "SECONDS"))
    var timeout = 3
    @Flag(help: "Ask /ready instead: whether its database answers too.")
    var ready = false

    func validate() throws {
        guard (1...300).contains(timeout) else { throw ValidationError("--timeout must be 1 to 300 seconds, got \(timeout)") }
        guard let address = URLComponents(string: url), ["http", "https"].contains(address.scheme), address.host?.isEmpty == false else {
            throw ValidationError("--url must be http://HOST:PORT or https://HOST:PORT, got \(url)")
        }
    }

    func run() async throws {
        let host = URLComponents(string: url)?.host ?? ""
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        if ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            configuration.tlsConfiguration = tls
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let path = (url.hasSuffix("/") ? String(url.dropLast()) : url) + (ready ? "/ready" : "/health")
        let answer: Result<UInt, any Error>
        do {
            answer = .success(try await client.execute(HTTPClientRequest(url: path), timeout: .seconds(Int64(timeout))).status.code)
        } catch {
            answer = .failure(error)
        }
        try await client.shutdown()
        switch answer {
        case .success(200):
            print("\(path): \(ready ? "ready" : "up")")
        case .success(let status):
            FileHandle.standardError.write(Data("termcanvas-bff: \(path) answered \(status): \(ready ? "not ready (its database does not answer, or its schema is not this build's)" : "not up")\n".utf8))
            throw ExitCode.failure
        case .failure(let error):
            FileHandle.standardError.write(Data("termcanvas-bff: \(Self.words(error, path: path, seconds: timeout))\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Why there was no answer, in our words (never the library's).
    static func words(_ error: any Error, path: String, seconds: Int) -> String {
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            return "\(path) did not answer within \(seconds) s"
        }
        let described = String(reflecting: error)
        if described.contains("SSL") || described.contains("TLS") {
            return "\(path): no secure (https) connection; is the server serving plain http?"
        }
        return "nothing answers at \(path): is the server running, on that port?"
    }
}
