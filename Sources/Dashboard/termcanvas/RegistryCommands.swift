import AppModel
import ArgumentParser
import BFFAccess
import CanvasFiles
import CommandSupport
import Foundation
import HTTPClient
import Logging
import ServerAPI

extension AppsCommand {
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Publish a remote micro-app (an app.yaml with entry:) to a server's registry; admins only.",
            discussion: """
                The version must be newer than every version published before. The first publish prints the \
                app's two secrets, once: the hook secret signs its webhooks (POST /api/hooks/ID), the entry \
                secret lets its entry check the X-TermCanvas-Signature of the server's calls. A publish after \
                a withdrawal makes new secrets; --rotate-secrets makes new ones for a live app (the version may \
                stay the same), the old ones still valid for 10 minutes.
                """)

        @Argument(help: "The app's app.yaml, or its folder.") var manifest: String
        @Option(help: ArgumentHelp("The entry URL, instead of the manifest's entry:.", valueName: "URL")) var entry: String?
        @Flag(help: "Make new hook and entry secrets; the old ones stay valid for 10 minutes, so a deploy under way is not cut off.")
        var rotateSecrets = false
        @OptionGroup var server: ServerOption

        func run() async throws {
            var file = URL(fileURLWithPath: manifest).standardizedFileURL
            if (try? file.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                file.appendPathComponent(AppFolders.manifestName)
            }
            let text = try TextFile.read(file)
            let parsed = try AppManifestFile.parse(text, file: file.path)
            guard let entry = entry ?? parsed.entry?.absoluteString else {
                throw CommandError(TerminalText.safe("\(file.path): a remote app needs entry: (or --entry URL)"))
            }
            let client = try await server.client()
            let detail: MicroAppDetail
            do {
                detail = try await client.put(APIPath.registryApp(parsed.id),
                                              body: PublishRequest(manifest: RegistryManifest(parsed), entry: entry,
                                                                   rotateSecrets: rotateSecrets ? true : nil))
            } catch {
                throw ServerOption.explain(error, doing: "publish \(parsed.id) \(parsed.version)")
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
    }

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Find micro-apps in a server's registry by id, name or description: id, version, kind, health, name.")

        @Argument(help: "Text to find; every app without it.") var text: String = ""
        @Option(help: "Only apps of this kind: builtin or remote.") var kind: RegistryAppKind?
        @OptionGroup var server: ServerOption

        func run() async throws {
            let client = try await server.client()
            var query = [(name: "q", value: text), (name: "limit", value: "200")]
            if let kind { query.append((name: "kind", value: kind.rawValue)) }
            let page: Page<MicroAppInfo>
            do {
                page = try await client.get(APIPath.registryApps, query: query)
            } catch {
                throw ServerOption.explain(error, doing: "search the registry")
            }
            for app in page.items {
                let health = app.health?.label() ?? "unknown"
                let fields = [app.id, app.version, (app.kind ?? .builtin).rawValue, health, app.name, app.description]
                print(fields.map(TerminalText.safe).joined(separator: "\t"))
            }
        }
    }
}

extension RegistryAppKind: ExpressibleByArgument {}
