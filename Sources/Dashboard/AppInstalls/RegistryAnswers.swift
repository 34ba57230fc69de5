import CanvasUI
import AppPackages
import CommandSupport
import FoundationEssentials
import HTTPClient
import Logging
import PlainText
import PrivateFiles
import ServerAPI

/// What this user keeps of the registries it asks about apps: each registry's key, pinned at its
/// first signed answer (and again at `termcanvas login`), and the newest revision of each app seen
/// there, so an answer replayed from before is noticed (`RegistryAnswerCheck`).
package struct RegistryAnswers {
    /// One registry's.
    package struct Record: Codable, Equatable {
        var key: String?
        var revisions: [String: Int] = [:]
    }

    package let file: URL
    /// Where a record that could not be kept is said.
    package let logger: Logger

    package init(_ paths: Paths, logger: Logger) {
        file = paths.configDirectory.appendingPathComponent("registries.json")
        self.logger = logger
    }

    /// The page of app `id` in `registry`, its signature checked; nil when it has no such app.
    /// - Throws: `CommandError` for an answer that is forged, of another key, expired or rolled
    ///   back (saying which), or a server that cannot be asked.
    package func detail(of id: String, in registry: Registry, client: HTTPClient) async throws -> MicroAppDetail? {
        let path = APIPath.registryApp(id)
        let response: HTTPClient.Response
        let detail: MicroAppDetail
        do {
            response = try await client.send(HTTPClient.Request(.get, path, headers: [(name: "Accept", value: "application/json")]))
            detail = try HTTPClient.decode(MicroAppDetail.self, from: response)
        } catch .status(404, _, _) {
            return nil
        } catch {
            throw CommandError(explaining: error, doing: "read \(id) in \(registry.name)'s registry")
        }
        var records = read()
        var record = records[registry.key] ?? Record()
        let header = response.header(RegistryAnswerSignature.header)
        let signature = header.flatMap { text in
            text.utf8.count <= PackageSignature.maximumBytes ? try? JSONDecoder().decode(RegistryAnswerSignature.self, from: Data(text.utf8)) : nil
        }
        // A header there but unreadable is no signature of the registry's.
        let check = header != nil && signature == nil ? .forged
            : RegistryAnswerCheck(signature, path: path, body: response.body, pinned: record.key.flatMap(PublicKey.init(base64:)),
                                  seen: record.revisions[id], now: Int(Date().timeIntervalSince1970),
                                  check: try SignatureChecking.ready(toCheck: "\(registry.name)'s signature"))
        let name = TerminalText.safe("\(registry.name)'s answer about \(id)")
        switch check {
        case .unsigned:
            return detail
        case .fresh(let key, let revision):
            guard revision == RegistryAnswerSignature.revision(of: detail.versions) else {
                throw CommandError("refused \(name): it is signed as revision \(revision) but shows another; nothing was changed. Tell the registry's admin.")
            }
            record.key = key.base64
            record.revisions[id] = max(revision, record.revisions[id] ?? 0)
            records[registry.key] = record
            write(records)
            return detail
        case .forged:
            throw CommandError("refused \(name): it is not signed by the registry's key, which signed its answers before. It was "
                               + "changed on the way or by whoever answered; nothing was changed. Tell the registry's admin.")
        case .otherKey(let pinned, let signer):
            throw CommandError("refused \(name): it is signed by \(signer.fingerprint), not by \(pinned.fingerprint), the registry's key "
                               + "you kept. If its admin says the server was rebuilt, termcanvas login \(TerminalText.safe(registry.key)) "
                               + "takes the new key; nothing was changed")
        case .expired(let at):
            let when = Date(timeIntervalSince1970: Double(at)).formatted(.iso8601)
            throw CommandError("refused \(name): it expired at \(when), so it is an answer from before, replayed (or this machine's "
                               + "clock is wrong). Nothing was changed; try again, and tell the registry's admin if it stays so.")
        case .rolledBack(let seen, let shown):
            throw CommandError("refused \(name): it shows revision \(shown), older than revision \(seen) you saw there before, so it is "
                               + "an answer from before, replayed. Nothing was changed; tell the registry's admin.")
        }
    }

    /// Forgets what was kept of `registry`: its next signed answer pins its key anew (`termcanvas login`).
    package func forget(_ registry: String) {
        var records = read()
        guard records.removeValue(forKey: registry) != nil else { return }
        write(records)
    }

    private func read() -> [String: Record] {
        guard let text = try? PrivateFile.read(file) else { return [:] }
        return (try? JSONDecoder().decode([String: Record].self, from: Data(text.utf8))) ?? [:]
    }

    /// Kept best-effort: a record not written only means the next answer is checked against less,
    /// which the log says.
    private func write(_ records: [String: Record]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(records)
            try PrivatePath.makeDirectory(file.deletingLastPathComponent())
            try PrivateFile.write(String(decoding: data, as: UTF8.self) + "\n", to: file)
        } catch {
            logger.warning("the registries' keys and revisions seen were not kept: the next answers are checked against less",
                           metadata: ["file": "\(file.path)", "error": "\(error)"])
        }
    }
}
