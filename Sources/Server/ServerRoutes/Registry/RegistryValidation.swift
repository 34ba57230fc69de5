import CanvasCore
import Foundation
import ServerAPI
import ServerHTTP

/// The rules a published manifest and entry follow (those of `app.yaml`); each failure names its
/// field, as `manifest.events.publishes[0]`.
enum RegistryValidation {
    /// Ids a remote app may not take: the server's own apps, the dashboard's Event Log, and
    /// `canvas` (whose `canvas.*` events only the server sends, about shared canvases).
    static let reservedIDs: Set<String> = Set(ServerApp.allCases.map(\.rawValue) + ["eventlog", "canvas"])
    /// The protocol versions a remote app may speak.
    static let protocols = 1...1

    /// Checks a publish of app `id`; returns its version and entry.
    static func validate(_ request: PublishRequest, id: String) throws -> (SemanticVersion, URL) {
        (try validate(request.manifest, id: id), try entry(request.entry))
    }

    /// Checks the manifest of a publish of app `id` (a remote app's, a package's); returns its version.
    static func validate(_ manifest: RegistryManifest, id: String) throws -> SemanticVersion {
        guard ManifestRules.isAppID(manifest.id) else {
            throw APIFailure.badRequest("must be \(ManifestRules.appIDRule)", field: "manifest.id")
        }
        guard manifest.id == id else { throw APIFailure.badRequest("must be the id of the path, '\(id)'", field: "manifest.id") }
        guard !reservedIDs.contains(id) else { throw APIFailure.conflict("'\(id)' is built into the server", field: "manifest.id") }
        guard ManifestRules.isName(manifest.name) else {
            throw APIFailure.badRequest("must be \(ManifestRules.nameLength.lowerBound) to \(ManifestRules.nameLength.upperBound) characters "
                                        + "on one line, without control characters", field: "manifest.name")
        }
        guard ManifestRules.isDescription(manifest.description) else {
            throw APIFailure.badRequest("must be at most \(ManifestRules.descriptionLength.upperBound) characters on one line, "
                                        + "without control characters", field: "manifest.description")
        }
        guard let version = SemanticVersion(manifest.version) else {
            throw APIFailure.badRequest("must be a semantic version such as 1.2.0", field: "manifest.version")
        }
        guard protocols.contains(manifest.protocol) else {
            throw APIFailure.badRequest("must be a protocol this server knows (\(protocols.lowerBound))", field: "manifest.protocol")
        }
        try names(manifest.events.publishes, field: "manifest.events.publishes") { name in
            ManifestRules.isOwnEventName(name, of: id) ? nil : "must be an event name starting with '\(id).', such as \(id).build.finished"
        }
        try names(manifest.events.subscribes, field: "manifest.events.subscribes") { pattern in
            ManifestRules.isEventPattern(pattern) ? nil : "must be an event pattern such as calendar.date.selected, todo.* or *"
        }
        guard manifest.backend.count <= ManifestRules.maximumBackendPaths else {
            throw APIFailure.badRequest("must have at most \(ManifestRules.maximumBackendPaths) paths", field: "manifest.backend")
        }
        for (index, path) in manifest.backend.enumerated() where !ManifestRules.isBackendPath(path) {
            throw APIFailure.badRequest("must be a path under /api/ such as /api/todo/items", field: "manifest.backend[\(index)]")
        }
        guard ManifestRules.widths.contains(manifest.minSize.width) else {
            throw APIFailure.badRequest("must be \(ManifestRules.widths.lowerBound) to \(ManifestRules.widths.upperBound)", field: "manifest.minSize.width")
        }
        guard ManifestRules.heights.contains(manifest.minSize.height) else {
            throw APIFailure.badRequest("must be \(ManifestRules.heights.lowerBound) to \(ManifestRules.heights.upperBound)", field: "manifest.minSize.height")
        }
        return version
    }

    static func entry(_ text: String) throws -> URL {
        guard let url = ManifestRules.entry(text) else {
            throw APIFailure.badRequest("must be an http or https URL with a host and no credentials, query or fragment", field: "entry")
        }
        return url
    }

    private static func names(_ names: [String], field: String, problem: (String) -> String?) throws {
        guard names.count <= ManifestRules.maximumEvents else {
            throw APIFailure.badRequest("must have at most \(ManifestRules.maximumEvents) names", field: field)
        }
        for (index, name) in names.enumerated() {
            if let problem = problem(name) { throw APIFailure.badRequest(problem, field: "\(field)[\(index)]") }
        }
    }
}
