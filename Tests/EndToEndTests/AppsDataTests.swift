import Foundation
import TestSupport
import Testing

/// Issue 55, item 17: an app over its disk limit is stopped at each start; `termcanvas apps data
/// ID` says what it keeps and where, and `--clear` empties it (asking first), nothing outside it.
@Suite(.serialized)
struct AppsDataTests {
    @Test func theCommandSaysWhatAnAppKeepsAndEmptiesItOnlyWhenAsked() async throws {
        let home = try TestHome()
        defer { home.remove() }
        let termcanvas = { (arguments: [String], input: String?) in
            try await Command.run([Products.termcanvas.path] + arguments, environment: home.environment, input: input)
        }
        // An app of 1 MiB's limit, which kept 2 MiB and a link to a file of the user's.
        let source = home.url.appendingPathComponent("hoarder")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try """
            id: hoarder
            name: Hoarder
            version: 1.0.0
            protocol: 1
            exec: [sh, run.sh]
            limits: { disk: 1MiB }
            """.write(to: source.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        try "exit 0\n".write(to: source.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
        #expect(try await termcanvas(["apps", "add", source.path], nil).status == 0)
        let data = home.url.appendingPathComponent("data/termcanvas/apps/hoarder")
        // Made as the runtime makes it: private.
        try FileManager.default.createDirectory(at: data.appendingPathComponent("cache/deep"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Data(repeating: 7, count: 2 << 20).write(to: data.appendingPathComponent("cache/deep/blob"))
        let mine = home.url.appendingPathComponent("notes.txt")
        try "mine".write(to: mine, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("notes"), withDestinationURL: mine)

        let shown = try await termcanvas(["apps", "data", "hoarder"], nil)
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("hoarder keeps 2.1 MiB in 4 files and folders in \(data.path)"), "\(shown.output)")
        #expect(shown.output.contains("Its limit: 1 MiB (limits.disk in its app.yaml)"), "\(shown.output)")
        #expect(shown.output.contains("it is over, so it is stopped at each start until emptied"), "\(shown.output)")
        #expect(shown.output.contains("termcanvas apps data hoarder --clear empties it"), "\(shown.output)")

        // No terminal and no --yes: nothing goes, and the error names the flag.
        let unasked = try await termcanvas(["apps", "data", "hoarder", "--clear"], "")
        #expect(unasked.status == 1 && unasked.output.contains("--clear --yes"), "\(unasked.output)")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("cache/deep/blob").path))
        let declined = try await termcanvas(["apps", "data", "hoarder", "--clear"], "n\n")
        #expect(declined.status == 1 && FileManager.default.fileExists(atPath: data.appendingPathComponent("cache/deep/blob").path))

        let cleared = try await termcanvas(["apps", "data", "hoarder", "--clear"], "y\n")
        #expect(cleared.status == 0 && cleared.output.contains("Emptied \(data.path)"), "\(cleared.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty)
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine", "the link went, not what it pointed to")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o700)
        let after = try await termcanvas(["apps", "data", "hoarder"], nil)
        #expect(after.output.contains("hoarder keeps 0 bytes in 0 files and folders"), "\(after.output)")

        let hostile = try await termcanvas(["apps", "data", "../../..", "--clear", "--yes"], nil)
        #expect(hostile.status == 1 && hostile.output.contains("is not a micro-app's id"), "\(hostile.output)")
    }
}
