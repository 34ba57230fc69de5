import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PrivateFiles

/// What `termcanvas login` keeps for a remote BFF: who logged in and the token the server issued.
public struct Credential: Codable, Sendable, Equatable {
    public let server: String
    public let user: String
    public let token: String
    /// The certificates `login --ca-file` was told to trust for this server (a PEM file), if any.
    public let trustedCertificates: String?
    /// A single sign-on's renewal handle (`login --sso`): sent back before `expiresAt` for a new
    /// token, while the identity provider still signs the user in.
    public let renewal: String?
    /// When `token` expires (seconds since 1970), when it is a single sign-on's short-lived one.
    public let expiresAt: Double?

    public init(server: ServerURL, user: String, token: String, trustedCertificates: String? = nil, renewal: String? = nil,
                expiresAt: Double? = nil) {
        self.server = server.origin
        self.user = user
        self.token = token
        self.trustedCertificates = trustedCertificates
        self.renewal = renewal
        self.expiresAt = expiresAt
    }
}

/// Tokens for remote BFFs, one private file per server in `$XDG_CONFIG_HOME/termcanvas/credentials/`
/// (directory 0700, files 0600), so `termcanvas --bff URL` finds what `termcanvas login URL` stored.
public struct CredentialStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func file(for server: ServerURL) -> URL {
        directory.appendingPathComponent(server.fileStem + ".json")
    }

    public func save(_ credential: Credential) throws(BFFAccessError) {
        let server = try ServerURL(credential.server)
        do { try PrivateFile.prepareDirectory(directory) } catch { throw BFFAccessError(error) }
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(credential)
        } catch {
            throw .io(path: file(for: server).path, errno: EINVAL)
        }
        do { try PrivateFile.write(String(decoding: data, as: UTF8.self), to: file(for: server)) } catch { throw BFFAccessError(error) }
    }

    /// The stored credential for `server`, or nil when there is none.
    /// - Throws: `.malformedCredential` for a file that is not one, `.unsafeDirectory` for a file
    ///   others can read.
    public func credential(for server: ServerURL) throws(BFFAccessError) -> Credential? {
        let url = file(for: server)
        let text: String?
        do { text = try PrivateFile.read(url) } catch { throw BFFAccessError(error) }
        guard let text else { return nil }
        guard let credential = try? JSONDecoder().decode(Credential.self, from: Data(text.utf8)),
              credential.server == server.origin, !credential.token.isEmpty
        else { throw .malformedCredential(path: url.path) }
        return credential
    }

    /// Forgets the credential of `server`; false when there was none.
    public func remove(for server: ServerURL) -> Bool {
        (try? FileManager.default.removeItem(at: file(for: server))) != nil
    }

    /// The servers logged in to, by address, sorted: those whose files can be read.
    public func servers() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.compactMap { name in
            (try? PrivateFile.read(directory.appendingPathComponent(name))).flatMap { $0 }
                .flatMap { try? JSONDecoder().decode(Credential.self, from: Data($0.utf8)).server }
        }.sorted()
    }
}
