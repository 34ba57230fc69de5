import Foundation
import MicroAppAPI

/// The rules a published manifest and entry follow (those of `app.yaml`); each failure names its
/// field, as `manifest.events.publishes[0]`.
enum RegistryValidation {
    /// Ids a remote app may not take: the server's own apps and the dashboard's Event Log.
    static let reservedIDs: Set<String> = Set(MicroApp.allCases.map(\.rawValue) + ["eventlog"])
    static let maximumEvents = 32
    static let maximumBackendPaths = 16
    /// The protocol versions a remote app may speak.
    static let protocols = 1...1

    static let appIDRule = "must be 1 to 32 of a-z, 0-9 and -, starting with a letter"

    /// True for an app id: 1–32 of `a-z`, `0-9`, `-`, starting with a letter.
    static func isAppID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first), id.unicodeScalars.count <= 32 else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// True for `source.entity.action` of `a-z`, `0-9`, `-` and `_` (the canvas's rule).
    static func isEventName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.count <= 96 && parts.count == 3 && parts.allSatisfy(isSegment)
    }

    /// True for what the canvas subscribes with: `*`, `source.*`, `source.entity.*` or a name.
    static func isEventPattern(_ pattern: String) -> Bool {
        guard pattern != "*" else { return true }
        guard pattern.hasSuffix(".*") else { return isEventName(pattern) }
        let stem = pattern.dropLast(2).split(separator: ".", omittingEmptySubsequences: false)
        return pattern.count <= 96 && (1...2).contains(stem.count) && stem.allSatisfy(isSegment)
    }

    private static func isSegment(_ part: Substring) -> Bool {
        !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// Checks a publish of app `id`; returns its version and entry.
    static func validate(_ request: PublishRequest, id: String) throws -> (SemanticVersion, URL) {
        let manifest = request.manifest
        guard isAppID(manifest.id) else {
            throw APIFailure.badRequest(appIDRule, field: "manifest.id")
        }
        guard manifest.id == id else { throw APIFailure.badRequest("must be the id of the path, '\(id)'", field: "manifest.id") }
        guard !reservedIDs.contains(id) else { throw APIFailure.conflict("'\(id)' is built into the server", field: "manifest.id") }
        try TextValidation.check(manifest.name, field: "manifest.name", lines: .single, length: 1...40)
        try TextValidation.check(manifest.description, field: "manifest.description", lines: .single, length: 0...200)
        guard let version = SemanticVersion(manifest.version) else {
            throw APIFailure.badRequest("must be a semantic version such as 1.2.0", field: "manifest.version")
        }
        guard protocols.contains(manifest.protocol) else {
            throw APIFailure.badRequest("must be a protocol this server knows (\(protocols.lowerBound))", field: "manifest.protocol")
        }
        try names(manifest.events.publishes, field: "manifest.events.publishes") { name in
            isEventName(name) && name.hasPrefix("\(id).") ? nil : "must be an event name starting with '\(id).', such as \(id).build.finished"
        }
        try names(manifest.events.subscribes, field: "manifest.events.subscribes") { pattern in
            isEventPattern(pattern) ? nil : "must be an event pattern such as calendar.date.selected, todo.* or *"
        }
        guard manifest.backend.count <= maximumBackendPaths else {
            throw APIFailure.badRequest("must have at most \(maximumBackendPaths) paths", field: "manifest.backend")
        }
        for (index, path) in manifest.backend.enumerated() {
            guard path.count <= 200, path.hasPrefix("/api/"), !path.contains(".."), !path.contains("?"),
                  path.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.generalCategory != .control && $0 != " " }) else {
                throw APIFailure.badRequest("must be a path under /api/ such as /api/todo/items", field: "manifest.backend[\(index)]")
            }
        }
        guard (1...500).contains(manifest.minSize.width) else { throw APIFailure.badRequest("must be 1 to 500", field: "manifest.minSize.width") }
        guard (1...200).contains(manifest.minSize.height) else { throw APIFailure.badRequest("must be 1 to 200", field: "manifest.minSize.height") }
        return (version, try entry(request.entry))
    }

    /// An `http` or `https` URL with a host, no credentials, query or fragment, at most 2048 characters.
    static func entry(_ text: String) throws -> URL {
        guard text.count <= 2048, let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false, components.user == nil,
              components.password == nil, components.query == nil, components.fragment == nil, let url = components.url else {
            throw APIFailure.badRequest("must be an http or https URL with a host and no credentials, query or fragment", field: "entry")
        }
        return url
    }

    private static func names(_ names: [String], field: String, problem: (String) -> String?) throws {
        guard names.count <= maximumEvents else { throw APIFailure.badRequest("must have at most \(maximumEvents) names", field: field) }
        for (index, name) in names.enumerated() {
            if let problem = problem(name) { throw APIFailure.badRequest(problem, field: "\(field)[\(index)]") }
        }
    }
}
