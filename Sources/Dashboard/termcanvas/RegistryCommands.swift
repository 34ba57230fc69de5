import CanvasUI
import AppInstalls
import AppModel
import AppPackages
import ArgumentParser
import BFFAccess
import CanvasFiles
import CommandSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HTTPClient
import Logging
import MicroAppProtocol
import PlainText
import ServerAPI

extension AppsCommand {
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Publish a micro-app to a server's registry: a process app as a package, a remote app (entry:) at its entry.",
            discussion: """
                A process app (exec: or sample:) is published as a package: its folder's plain files (hidden ones left out, \
                at most 2 MiB), which anyone signed in can install (termcanvas apps install ID). Admins publish, and users an \
                admin makes publishers of that id (termcanvas apps publishers ID --add NAME).

                A remote app is published at its entry; admins only. The first publish prints the app's two secrets, once: \
                the hook secret signs its webhooks (POST /api/hooks/ID), the entry secret lets its entry check the \
                X-TermCanvas-Signature of the server's calls. A publish after a withdrawal makes new secrets; \
                --rotate-secrets makes new ones for a live app (the version may stay the same), the old ones still valid \
                for 10 minutes.

                Either way the version must be newer than every version published before.
                """)

        @Argument(help: "The app's folder, or its app.yaml.") var manifest: String
        @Option(help: ArgumentHelp("A remote app's entry URL, instead of the manifest's entry:.", valueName: "URL")) var entry: String?
        @Flag(help: "Make new hook and entry secrets for a remote app; the old ones stay valid for 10 minutes, so a deploy under way is not cut off.")
        var rotateSecrets = false
        @OptionGroup var keyFile: KeyFileOption
        @OptionGroup var server: ServerOption

        func run() async throws {
            var file = URL(fileURLWithPath: manifest).standardizedFileURL
            var info = stat()
            if stat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                file.appendPathComponent(AppFolders.manifestName)
            }
            let text = try TextFile.read(file)
            let parsed = try AppManifestFile.parse(text, file: file.path)
            guard let entry = entry ?? parsed.entry?.absoluteString else {
                return try await publishPackage(parsed, folder: file.deletingLastPathComponent())
            }
            let client = try await server.client()
            let detail: MicroAppDetail
            do {
                detail = try await client.put(APIPath.registryApp(parsed.id),
                                              body: PublishRequest(manifest: RegistryManifest(parsed), entry: entry,
                                                                   rotateSecrets: rotateSecrets ? true : nil))
            } catch {
                throw CommandError(explaining: error, doing: "publish \(parsed.id) \(parsed.version)")
            }
            print(TerminalText.safe("published \(detail.app.id) \(detail.app.version)"))
            if let secrets = detail.secrets {
                print("hook secret (signs webhooks; shown once):  \(secrets.hook)")
                print("entry secret (your entry checks X-TermCanvas-Signature with it; shown once):  \(secrets.entry)")
                if rotateSecrets {
                    print("the previous secrets stay valid for \(Int(AppSecrets.rotationOverlap / 60)) minutes: give your CI and entry the new ones")
                }
            }
        }

        /// Sends the folder's files as a package; the server reads what it asks for from its app.yaml.
        private func publishPackage(_ manifest: AppManifest, folder: URL) async throws {
            guard !rotateSecrets else { throw ValidationError("--rotate-secrets is for remote apps; \(manifest.id) is a package (it has no entry:)") }
            let (archive, leftOut) = try PackageFolder.archive(of: folder)
            let bytes = archive.encoded()
            let signer = try publisherKey()
            let version = SemanticVersion(manifest.version)?.description ?? manifest.version
            let signature = try signer.signature(id: manifest.id, version: version, digest: SHA256Digest.hex(of: bytes))
            let headers = [(name: "Content-Type", value: "application/x-tar"),
                           (name: PackageSignature.header, value: String(decoding: try JSONEncoder().encode(signature), as: UTF8.self))]
            let client = try await server.client()
            let detail: MicroAppDetail
            do throws(HTTPClientError) {
                let response = try await client.send(HTTPClient.Request(.post, APIPath.registryVersions(manifest.id), headers: headers, body: bytes))
                detail = try HTTPClient.decode(MicroAppDetail.self, from: response)
            } catch {
                throw CommandError(explaining: error, doing: "publish \(manifest.id) \(manifest.version)")
            }
            let registry = try Registry(server)
            print(TerminalText.safe("Published \(detail.app.id) \(detail.app.version) to \(registry.name) as a package: "
                                    + "\(archive.files.count) files, \(ByteCount.words(bytes.count)), sha256:\(SHA256Digest.hex(of: bytes)), "
                                    + "signed by \(signer.key?.fingerprint ?? "")"))
            if !leftOut.isEmpty { print(TerminalText.safe("Left out (hidden): " + leftOut.joined(separator: ", "))) }
            let asks = PackagePermissions(manifest).inWords
            print(asks.isEmpty ? "It asks for nothing of its users'." : "It asks to: " + TerminalText.safe(asks.joined(separator: "; ")))
        }

        /// The key that signs: `--key`'s, or the usual one, made the first time (and said).
        private func publisherKey() throws -> PublisherKeyFile {
            let location = keyFile.location
            if let key = try PublisherKeyFile.read(location) { return key }
            guard keyFile.key == nil else {
                throw CommandError(TerminalText.safe("there is no publisher key in \(location.path): termcanvas apps keys new --key \(location.path) makes one"))
            }
            let key = try PublisherKeyFile.make()
            try key.write(to: location)
            print(TerminalText.safe("Made your publisher key, \(key.key?.fingerprint ?? ""), in \(location.path) (yours alone; back it up): "
                                    + "it signs what you publish, and installers keep to it."))
            return key
        }
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find micro-apps by id, name or description in the registries you follow: id, version, kind, health or what a package asks for, name, description, registry; each built-in app once.",
            discussion: """
                Without --bff every registry you follow is searched (your own server and each you are logged in to), and \
                each result names its registry; an id found in two is shown as REGISTRY/ID, the name apps install takes.
                """)

        /// Display columns of a description on a terminal; piped, it is whole.
        static let descriptionWidth = 40

        @Argument(help: "Text to find; every app without it.") var text: String = ""
        @Option(help: "Only apps of this kind: builtin, remote or package.") var kind: RegistryAppKind?
        @OptionGroup var server: ServerOption

        func run() async throws {
            var results: [(registry: Registry, app: MicroAppInfo)] = []
            var failures: [String] = []
            let registries = try Registries.followed(server)
            for registry in registries {
                var query = [(name: "q", value: text), (name: "limit", value: "200"), (name: "packages", value: "true")]
                if let kind { query.append((name: "kind", value: kind.rawValue)) }
                do {
                    let page: Page<MicroAppInfo> = try await registry.client().get(APIPath.registryApps, query: query)
                    results += page.items.map { (registry, $0) }
                } catch let error as HTTPClientError {
                    failures.append(CommandError(explaining: error, doing: "search \(registry.name)'s registry").description)
                } catch {
                    failures.append(PackageInstaller.words(error))
                }
            }
            // A built-in app is the same in every registry: listed once, from the first.
            var builtIns = Set<String>()
            results.removeAll { result in (result.app.kind ?? .builtin) == .builtin && !builtIns.insert(result.app.id).inserted }
            let names = Registries.names(results.map { ($0.registry, $0.app.id) })
            // On a terminal: a header, and each description cut to what fits beside the rest.
            let terminal = isatty(STDOUT_FILENO) == 1
            if terminal, !results.isEmpty { print("ID\tVERSION\tKIND\tSTATE\tNAME\tDESCRIPTION\tREGISTRY") }
            for (index, (registry, app)) in results.enumerated() {
                let id = names[index]
                let state = if app.kind == .package {
                    app.package.map { $0.permissions.inWords.isEmpty ? "asks for nothing" : "asks to " + $0.permissions.inWords.joined(separator: "; ") } ?? ""
                } else {
                    app.health?.label() ?? "unknown"
                }
                let description = terminal ? DisplayWidth.clipped(app.description, to: Self.descriptionWidth) : app.description
                let fields = [id, app.version, (app.kind ?? .builtin).rawValue, state, app.name, description, registry.name]
                print(fields.map(TerminalText.safe).joined(separator: "\t"))
            }
            for failure in failures { Console.error("termcanvas: \(failure)\n") }
            if failures.count == registries.count { throw ExitCode.failure }
        }
    }
}

extension RegistryAppKind: ExpressibleByArgument {}
