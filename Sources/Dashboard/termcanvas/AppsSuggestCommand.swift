import AppInstalls
import AppModel
import ArgumentParser
import CanvasUI
import CommandSupport
import FoundationEssentials
import Glibc
import HTTPClient
import Logging
import MicroAppGenerator
import ModelClient
import ServerAPI

extension AppsCommand {
    struct Suggest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest",
            abstract: "Suggest micro-apps: packages your team uses that you do not have, or, given a sentence, the registries' apps that fit it.",
            discussion: """
                Without a sentence, each registry you follow (or --bff's) suggests the packages on canvases shared with you \
                and those your teammates install most, from counts: no one learns who installed what. With one, the \
                language model of ai.yaml (as apps new uses it) ranks the registries' apps for it, told only their ids, \
                names and descriptions.
                """)

        @Argument(help: "What you need, in words; without it, suggestions from what your team uses.") var need: String?
        @OptionGroup var server: ServerOption

        func run() async throws {
            let paths = AppsCommand.paths
            let installed = Set(AppsCommand.folders(paths).scan().apps.filter { !$0.isShipped }.map(\.id))
            let registries = try Registries.followed(server)
            if let need {
                try await rank(need, registries: registries, installed: installed, paths: paths)
            } else {
                try await fromCounts(registries: registries, installed: installed)
            }
        }

        private func fromCounts(registries: [Registry], installed: Set<String>) async throws {
            var found: [(registry: Registry, suggestion: AppSuggestion)] = []
            for registry in registries {
                do {
                    let suggestions: [AppSuggestion] = try await registry.client().get(APIPath.registrySuggestions)
                    found += suggestions.filter { !installed.contains($0.app.id) }.map { (registry, $0) }
                } catch let error as HTTPClientError {
                    Console.error("termcanvas: \(CommandError(explaining: error, doing: "ask \(registry.name) for suggestions"))\n")
                }
            }
            guard !found.isEmpty else {
                return print("Nothing to suggest: no package is on a canvas shared with you or installed by a teammate that you do not have")
            }
            let names = Registries.names(found.map { ($0.registry, $0.suggestion.app.id) })
            for (index, (registry, suggestion)) in found.enumerated() {
                let fields = [names[index], suggestion.app.version, suggestion.app.name, suggestion.reason, registry.name]
                print(fields.map(TerminalText.safe).joined(separator: "\t"))
            }
            print("termcanvas apps install ID shows a package's page and installs it")
        }

        private func rank(_ need: String, registries: [Registry], installed: Set<String>, paths: Paths) async throws {
            guard (1...500).contains(need.utf8.count) else { throw ValidationError("say what you need in 1 to 500 bytes") }
            let model: ModelClient
            let settingsFile = paths.configDirectory.appendingPathComponent(ModelSettings.fileName)
            do {
                let settings = try ModelSettings(try ModelSettings.Fields.read(settingsFile), file: settingsFile)
                model = ModelClient(settings: settings, key: try settings.key(in: ProcessInfo.processInfo.environment),
                                    logger: ServerOption.logger)
            } catch {
                throw CommandError("no language model is configured to rank apps for a need: \(TerminalText.safe(error.description)). "
                                   + "Without a sentence, apps suggest suggests from what your team uses")
            }
            var apps: [(registry: Registry, app: MicroAppInfo)] = []
            for registry in registries {
                do {
                    let page: Page<MicroAppInfo> = try await registry.client().get(
                        APIPath.registryApps, query: [(name: "packages", value: "true"), (name: "limit", value: "200")])
                    apps += page.items.map { (registry, $0) }
                } catch let error as HTTPClientError {
                    Console.error("termcanvas: \(CommandError(explaining: error, doing: "read \(registry.name)'s registry"))\n")
                }
            }
            let names = Registries.names(apps.map { ($0.registry, $0.app.id) })
            let candidates = apps.enumerated().map { index, found in
                AppRanking.Candidate(id: names[index], name: found.app.name, description: found.app.description)
            }
            let ranked: [String]
            // A model can take a while: say what is being waited for, beside the results.
            if isatty(STDERR_FILENO) == 1 {
                Console.error(TerminalText.safe("Asking \(model.settings.model) which of \(candidates.count) apps fit…") + "\n")
            }
            do {
                ranked = try await AppRanking.rank(need, among: candidates, model: model)
            } catch {
                throw CommandError("the language model could not rank the apps: \(TerminalText.safe(error.description))")
            }
            guard !ranked.isEmpty else {
                return print("No app in \(registries.map(\.name).joined(separator: ", ")) fits that; termcanvas apps new \"…\" writes one")
            }
            for (place, id) in ranked.enumerated() {
                guard let index = names.firstIndex(of: id) else { continue }
                let (registry, app) = apps[index]
                let state = installed.contains(app.id) ? "installed" : app.kind == .package ? "apps install \(id)" : "in the catalog (a)"
                let fields = ["\(place + 1). \(id)", app.version, app.name, app.description, registry.name, state]
                print(fields.map(TerminalText.safe).joined(separator: "\t"))
            }
        }

    }
}
