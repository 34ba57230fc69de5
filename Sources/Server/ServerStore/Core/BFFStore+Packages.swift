import CalendarTime
import CanvasCore
import Foundation
import ServerAPI

/// A package's version, checked by the route (its archive read, its manifest parsed, its digest
/// taken), ready to store.
package struct PackageUpload: Sendable {
    package let manifest: RegistryManifest
    package let version: SemanticVersion
    package let archive: Data
    /// SHA-256 of `archive`, lower-case hex.
    package let digest: String
    package let permissions: PackagePermissions
    /// The publisher's, checked against `digest`.
    package let signature: PackageSignature

    package init(manifest: RegistryManifest, version: SemanticVersion, archive: Data, digest: String, permissions: PackagePermissions,
                signature: PackageSignature) {
        self.manifest = manifest
        self.version = version
        self.archive = archive
        self.digest = digest
        self.permissions = permissions
        self.signature = signature
    }
}

/// What withdrawing one version of a package did.
package enum VersionWithdrawal: Equatable, Sendable {
    /// Withdrawn; `current` is the version now offered, nil when none is left (the app is then
    /// withdrawn too).
    case withdrawn(current: String?)
    case notFound
    case notPublisher
}

/// Packages: micro-apps whose files the registry keeps (`apps publish` of a process app), each
/// version's archive beside its digest and permissions; who may publish them; and who installed
/// them, kept only to be counted.
extension BFFStore {
    /// Stores `upload` as the package's new current version, by `user`: an admin, or a publisher of
    /// that id. Publishes of one app take turns (a lock of the app's), across instances too.
    /// - Throws: `BFFStoreError.quotaReached` past `PackageLimits.versionsPerPublisher` or
    ///   `bytesPerPublisher` (what the user has published, withdrawn versions included).
    package func publishPackage(_ upload: PackageUpload, by user: BFFUser) async throws -> PublishOutcome {
        let id = upload.manifest.id
        let manifest = String(decoding: try JSONEncoder().encode(upload.manifest), as: UTF8.self)
        let permissions = String(decoding: try JSONEncoder().encode(upload.permissions), as: UTF8.self)
        let signature = String(decoding: try JSONEncoder().encode(upload.signature), as: UTF8.self)
        // The publisher's lock too: two of their publishes at once cannot both take their last version.
        return try await runWrite(.lock("registry.publisher.\(user.id)", next: .lock("registry.app." + id, next: Self.mayPublish(id, user) { allowed in
            guard allowed else { return .done(.notPublisher) }
            return .run("""
                SELECT COUNT(*), CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM registry_versions WHERE publisher_id = \(user.id)
                """) { spent in
                try BFFStore.checkQuota(spent, PackageLimits.versionsPerPublisher, of: "package versions")
                guard (try spent.first?.integer(1) ?? 0) + Int64(upload.archive.count) <= Int64(PackageLimits.bytesPerPublisher) else {
                    throw BFFStoreError.quotaReached(what: "MiB of packages", limit: PackageLimits.bytesPerPublisher >> 20)
                }
                return .run("SELECT kind, withdrawn_at IS NOT NULL FROM registry_apps WHERE id = \(id)") { existing in
                    .run("SELECT version, withdrawn_at IS NULL FROM registry_versions WHERE app_id = \(id)") { versions in
                        let published = try versions.compactMap { row in SemanticVersion(try row.text(0)) }
                        let offered = try versions.compactMap { row in try row.bool(1) ? SemanticVersion(try row.text(0)) : nil }
                        let plan = PublishPlan(kind: try existing.first?.text(0), withdrawn: try existing.first?.bool(1) ?? false,
                                               newest: published.max(), version: upload.version, rotateSecrets: false, publishing: .package)
                        // A pre-release does not become current while a release is offered.
                        let current = SemanticVersion.current(of: offered + [upload.version]) ?? upload.version
                        let shown = current == upload.version ? upload.manifest : nil
                        let app: SQLStatement
                        switch plan.outcome {
                        case .refused(let outcome): return .done(outcome)
                        case .keepVersion: return .done(.notNewer(current: upload.version))
                        case .create:
                            app = """
                                INSERT INTO registry_apps (id, kind, name, description, current_version)
                                VALUES (\(id), 'package', \(upload.manifest.name), \(upload.manifest.description), \(upload.version.description))
                                """
                        case .update:
                            app = """
                                UPDATE registry_apps SET name = COALESCE(\(shown?.name), name),
                                    description = COALESCE(\(shown?.description), description),
                                    current_version = \(current.description), withdrawn_at = NULL WHERE id = \(id)
                                """
                        }
                        return .run(app) { _ in
                            .run("""
                                INSERT INTO registry_versions (app_id, version, manifest, published_at, published_by, archive, digest, size,
                                    permissions, publisher_id, signature)
                                VALUES (\(id), \(upload.version.description), \(manifest), \(UTCInstant.now.iso), \(user.name), \(upload.archive),
                                    \(upload.digest), \(Int64(upload.archive.count)), \(permissions), \(user.id), \(signature))
                                """) { _ in
                                Self.entry(id).then { stored -> Plan<PublishOutcome> in
                                    guard let stored else { throw BFFStoreError.unreadableRow("registry_apps \(id), just written") }
                                    return .record(.registryAppPublished, owner: nil, data: stored.info(health: nil),
                                                   then: Plan.done(.published(stored, created: plan.outcome == .create, newSecrets: false))
                                                       .audited(.appPublished, by: user.name, target: "app \(id)",
                                                                detail: "\(upload.version) sha256:\(upload.digest)"))
                                }
                            }
                        }
                    }
                }
            }
        })))
    }

    /// Whether `user` may publish versions of the package `id`, asked before its archive is read.
    package func mayPublishPackage(_ id: String, by user: BFFUser) async throws -> Bool {
        try await runRead(Self.mayPublish(id, user) { .done($0) }, snapshot: false)
    }

    /// The archive of a package's version as stored; nil when there is no such version, or it or
    /// the app is withdrawn.
    package func packageArchive(_ id: String, version: String) async throws -> Data? {
        try await runRead(Plan.run("""
            SELECT v.archive FROM registry_versions v JOIN registry_apps a ON a.id = v.app_id
            WHERE v.app_id = \(id) AND v.version = \(version) AND a.kind = 'package' AND a.withdrawn_at IS NULL
                AND v.withdrawn_at IS NULL AND v.archive IS NOT NULL
            """) { rows in
            .done(try rows.first?.blob(0))
        }, snapshot: false)
    }

    /// Withdraws one version of a package: it is no longer offered or downloaded, and machines
    /// that have it say so. The newest version left becomes the current one; with none left, the
    /// app is withdrawn.
    package func withdrawPackageVersion(_ id: String, version: String, by user: BFFUser) async throws -> VersionWithdrawal {
        try await runWrite(.lock("registry.app." + id, next: Self.mayPublish(id, user) { allowed in
            guard allowed else { return .done(.notPublisher) }
            return .run("""
                UPDATE registry_versions SET withdrawn_at = \(UTCInstant.now.iso)
                WHERE app_id = \(id) AND version = \(version) AND withdrawn_at IS NULL AND archive IS NOT NULL RETURNING 1
                """) { changed in
                guard !changed.isEmpty else { return .done(.notFound) }
                return .run("SELECT version FROM registry_versions WHERE app_id = \(id) AND withdrawn_at IS NULL") { left in
                    let current = SemanticVersion.current(of: try left.compactMap { row in SemanticVersion(try row.text(0)) })?.description
                    let update: SQLStatement = if let current {
                        "UPDATE registry_apps SET current_version = \(current) WHERE id = \(id)"
                    } else {
                        "UPDATE registry_apps SET withdrawn_at = \(.now) WHERE id = \(id)"
                    }
                    let done = Plan<VersionWithdrawal>.done(.withdrawn(current: current))
                        .audited(.appWithdrawn, by: user.name, target: "app \(id)", detail: version)
                    // Every dashboard reads the registry again: machines that have the version learn it was withdrawn.
                    return .run(update) { _ in
                        guard current != nil else { return .record(.registryAppWithdrawn, owner: nil, data: DeletedApp(id: id), then: done) }
                        return Self.entry(id).then { stored in
                            guard let stored else { throw BFFStoreError.unreadableRow("registry_apps \(id), just written") }
                            return .record(.registryAppPublished, owner: nil, data: stored.info(health: nil), then: done)
                        }
                    }
                }
            }
        }))
    }

    /// Makes `user` a publisher of the package `id` (which need not exist yet), by `admin`; false
    /// when they already were.
    package func addPublisher(_ user: BFFUser, of id: String, by admin: BFFUser) async throws -> Bool {
        try await runWrite(Plan.run("""
            INSERT INTO registry_publishers (app_id, user_id, granted_by, granted_at) VALUES (\(id), \(user.id), \(admin.name), \(UTCInstant.now.iso))
            ON CONFLICT DO NOTHING RETURNING 1
            """) { rows in
            guard !rows.isEmpty else { return .done(false) }
            return Plan.done(true).audited(.publisherAdded, by: admin.name, target: "app \(id)", detail: user.name)
        })
    }

    /// Takes back `user`'s right to publish `id`; false when they had none.
    package func removePublisher(_ user: BFFUser, of id: String, by admin: BFFUser) async throws -> Bool {
        try await runWrite(Plan.run("DELETE FROM registry_publishers WHERE app_id = \(id) AND user_id = \(user.id) RETURNING 1") { rows in
            guard !rows.isEmpty else { return .done(false) }
            return Plan.done(true).audited(.publisherRemoved, by: admin.name, target: "app \(id)", detail: user.name)
        })
    }

    /// The publishers of `id`, by name.
    package func publishers(of id: String) async throws -> [PackagePublisher] {
        try await runRead(Plan.run("""
            SELECT u.name, p.granted_by, p.granted_at FROM registry_publishers p JOIN users u ON u.id = p.user_id
            WHERE p.app_id = \(id) ORDER BY u.name
            """) { rows in
            .done(try rows.map { row in PackagePublisher(user: try row.text(0), grantedBy: try row.text(1), grantedAt: try row.text(2)) })
        }, snapshot: false)
    }

    /// Records an install of the package `id` under `mark`, its user's mark for it
    /// (`InstallMarks`): once per user, as installing again or updating makes the same mark, and
    /// without who. False when there is no such package. The audit log says a package was
    /// installed and how many users have it, never by whom.
    package func recordInstall(of id: String, mark: String) async throws -> Bool {
        try await runWrite(Plan.run("""
            SELECT 1 FROM registry_apps WHERE id = \(id) AND kind = 'package' AND withdrawn_at IS NULL\(.forShare)
            """) { rows in
            guard !rows.isEmpty else { return .done(false) }
            return .run("""
                INSERT INTO registry_install_marks (app_id, mark) VALUES (\(id), \(mark)) ON CONFLICT DO NOTHING RETURNING 1
                """) { added in
                guard !added.isEmpty else { return .done(true) }
                return .run("SELECT COUNT(*) FROM registry_install_marks WHERE app_id = \(id)") { count in
                    let users = try count.first?.integer(0) ?? 0
                    return Plan.done(true).audited(.appInstalled, by: AuditActor.someUser, target: "app \(id)",
                                                   detail: "installed by \(users) user\(users == 1 ? "" : "s")", counted: false)
                }
            }
        })
    }

    /// Moves the installs counted before schema v18, kept with their users, to marks made by
    /// `mark(user, app)`, a few hundred to a transaction; the number moved. A server does this as it
    /// starts; on PostgreSQL its instances may do it at once, as a mark is kept once and a row is
    /// deleted once.
    package func forgetInstallers(marking mark: @escaping @Sendable (Int64, String) -> String) async throws -> Int {
        var moved = 0
        while true {
            let batch = try await runWrite(Plan.run("""
                SELECT app_id, user_id FROM registry_installs LIMIT \(Self.installsMovedAtOnce)\(.forUpdateSkipLocked)
                """) { rows in
                let installs = try rows.map { (app: try $0.text(0), user: try $0.integer(1)) }
                guard !installs.isEmpty else { return .done(0) }
                var marks: SQLStatement = "INSERT INTO registry_install_marks (app_id, mark) VALUES "
                var named: SQLStatement = "DELETE FROM registry_installs WHERE (app_id, user_id) IN ("
                for (index, install) in installs.enumerated() {
                    let comma: SQLStatement = index == 0 ? "" : ", "
                    marks += "\(comma)(\(install.app), \(mark(install.user, install.app)))"
                    named += "\(comma)(\(install.app), \(install.user))"
                }
                marks += " ON CONFLICT DO NOTHING"
                named += ")"
                return .run(marks) { [named] _ in .run(named) { _ in .done(installs.count) } }
            })
            guard batch > 0 else { return moved }
            moved += batch
        }
    }

    static let installsMovedAtOnce = 500

    /// Whether `user` may publish versions of `id`: an admin, or a publisher of it.
    private static func mayPublish<T>(_ id: String, _ user: BFFUser, then next: @escaping @Sendable (Bool) throws -> Plan<T>) -> Plan<T> {
        if user.isAdmin { return Plan<Bool>.done(true).then(next) }
        return .run("SELECT 1 FROM registry_publishers WHERE app_id = \(id) AND user_id = \(user.id)") { rows in try next(!rows.isEmpty) }
    }
}

extension BFFStore {
    /// The packages suggested to `user`: those with a pane on canvases shared with them (not their
    /// own), then those installed most, leaving out what they installed (each app's mark of theirs
    /// is `mark(app)`) and anything withdrawn; counts only.
    package func suggestions(for user: Int64, mark: @escaping @Sendable (String) -> String) async throws -> [AppSuggestion] {
        try await runRead(Plan.run("""
            SELECT c.layout FROM canvases c JOIN canvas_members m ON m.canvas_id = c.id
            WHERE m.user_id = \(user) AND c.owner_id <> \(user) ORDER BY c.updated_at DESC LIMIT \(Self.canvasesSuggestedFrom)
            """) { layouts in
            var counted: [String: Int] = [:]
            // A layout that cannot be read (changed by hand) counts nothing; the others still do.
            for layout in layouts.compactMap({ row in try? CanvasStorage.decode(LayoutData.self, try row.text(0)) }) {
                for kind in Set(layout.panes.map(\.app.rawValue)) { counted[kind, default: 0] += 1 }
            }
            let onCanvases = counted
            return .run("""
                SELECT i.app_id, COUNT(*) FROM registry_install_marks i JOIN registry_apps a ON a.id = i.app_id
                WHERE a.kind = 'package' AND a.withdrawn_at IS NULL
                GROUP BY i.app_id ORDER BY COUNT(*) DESC, i.app_id LIMIT \(Self.installedMostRanked)
                """) { installs in
                let counts = Dictionary(try installs.map { (try $0.text(0), Int(try $0.integer(1))) }, uniquingKeysWith: +)
                let elsewhere = onCanvases.keys.filter { counts[$0] == nil && ManifestRules.isAppID($0) }.sorted()
                let live = elsewhere.isEmpty ? Plan.done([String]()) : .run("""
                    SELECT id FROM registry_apps WHERE id IN (\(SQLStatement.list(elsewhere))) AND kind = 'package' AND withdrawn_at IS NULL
                    """) { rows in .done(try rows.map { try $0.text(0) }) }
                return live.then { packagesOnCanvases in
                    let ranked = (Array(counts.keys) + packagesOnCanvases).map { id in
                        SuggestionRank(app: id, sharedCanvases: onCanvases[id, default: 0], installs: counts[id, default: 0])
                    }.sorted()
                    return Self.notInstalled(ranked[...], by: mark, wanted: AppSuggestion.maximum).then { chosen in
                        Self.entries(chosen.map(\.app)).then { entries in
                            let byApp = Dictionary(chosen.map { ($0.app, $0) }, uniquingKeysWith: { first, _ in first })
                            return .done(entries.compactMap { entry in
                                byApp[entry.id].map { AppSuggestion(app: entry.info(health: nil), sharedCanvases: $0.sharedCanvases,
                                                                    teammateInstalls: $0.installs) }
                            })
                        }
                    }
                }
            }
        }, snapshot: true)
    }

    /// The first `wanted` of `ranked` that the user has not installed (`mark` is theirs of an app),
    /// asked about a few more than are still wanted at a time, so a user with few installs costs
    /// one short query. Their installs left out, the counts are others' only.
    private static func notInstalled(_ ranked: ArraySlice<SuggestionRank>, by mark: @escaping @Sendable (String) -> String,
                                     wanted: Int, found: [SuggestionRank] = []) -> Plan<[SuggestionRank]> {
        let asked = ranked.prefix(2 * (wanted - found.count))
        guard !asked.isEmpty else { return .done(found) }
        return .run("SELECT app_id FROM registry_install_marks WHERE mark IN (\(SQLStatement.list(asked.map { mark($0.app) })))") { mine in
            let installed = Set(try mine.map { try $0.text(0) })
            let found = found + asked.filter { !installed.contains($0.app) }.prefix(wanted - found.count)
            guard found.count < wanted else { return .done(found) }
            return notInstalled(ranked.dropFirst(asked.count), by: mark, wanted: wanted, found: found)
        }
    }

    /// The most installed packages a suggestion is chosen from, before those the user has are left out.
    static let installedMostRanked = 1000

    /// The most canvases shared with a user whose panes suggestions count, the latest changed first.
    static let canvasesSuggestedFrom = 500
}

/// A package's place among suggestions: on more canvases shared with the user first, then
/// installed by more others, then by id.
private struct SuggestionRank: Comparable {
    let app: String
    let sharedCanvases: Int
    let installs: Int

    static func < (left: Self, right: Self) -> Bool {
        (right.sharedCanvases, right.installs, left.app) < (left.sharedCanvases, left.installs, right.app)
    }
}
