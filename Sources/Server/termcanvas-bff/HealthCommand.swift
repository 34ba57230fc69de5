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
            For a container's health check or a script. Without --url it asks $TERMCANVAS_HEALTH_URL, else \
            port 7450 on this machine, over http and then https. A server on this machine (127.0.0.1, ::1, \
            localhost) is asked over https without checking its certificate: what is asked is whether this \
            machine's server process answers, not who it is.
            """
    )

    /// Where a server started with the defaults answers.
    static let defaultAddresses = ["http://127.0.0.1:7450", "https://127.0.0.1:7450"]

    @Option(help: ArgumentHelp("The server's address (default: $TERMCANVAS_HEALTH_URL, else port 7450 here).", valueName: "URL"))
    var url: String?
    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "SECONDS"))
    var timeout = 3
    @Flag(help: "Ask /ready instead: whether its database answers too.")
    var ready = false

    /// The addresses to ask, in order: the one given, else both schemes of the default.
    var addresses: [String] {
        if let given = url ?? ProcessInfo.processInfo.environment["TERMCANVAS_HEALTH_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return [given]
        }
        return Self.defaultAddresses
    }

    func validate() throws {
        guard (1...300).contains(timeout) else { throw ValidationError("--timeout must be 1 to 300 seconds, got \(timeout)") }
        for address in addresses {
            guard let parts = URLComponents(string: address), ["http", "https"].contains(parts.scheme), parts.host?.isEmpty == false else {
                throw ValidationError("the server's address must be http://HOST:PORT or https://HOST:PORT, got \(address)")
            }
        }
    }

    func run() async throws {
        var answer: (path: String, result: Result<UInt, any Error>)?
        for address in addresses {
            let path = (address.hasSuffix("/") ? String(address.dropLast()) : address) + (ready ? "/ready" : "/health")
            answer = (path, await Self.status(of: path, seconds: timeout))
            if case .success = answer?.result { break }
        }
        guard let answer else { return }
        switch answer.result {
        case .success(200):
            print("\(answer.path): \(ready ? "ready" : "up")")
        case .success(let status):
            let meaning = ready ? "not ready (its database does not answer, or its schema is not this build's)" : "not up"
            FileHandle.standardError.write(Data("termcanvas-bff: \(answer.path) answered \(status): \(meaning)\n".utf8))
            throw ExitCode.failure
        case .failure(let error):
            FileHandle.standardError.write(Data("termcanvas-bff: \(Self.words(error, path: answer.path, seconds: timeout))\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The HTTP status of a GET of `path`, or why there was none.
    static func status(of path: String, seconds: Int) async -> Result<UInt, any Error> {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        if ["127.0.0.1", "::1", "[::1]", "localhost"].contains(URLComponents(string: path)?.host ?? "") {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            configuration.tlsConfiguration = tls
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: Result<UInt, any Error>
        do {
            result = .success(try await client.execute(HTTPClientRequest(url: path), timeout: .seconds(Int64(seconds))).status.code)
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        return result
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
