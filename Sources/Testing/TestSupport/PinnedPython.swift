import Foundation

/// A virtual environment under `.build/` with pinned packages from PyPI, made when missing or
/// holding other versions: the field's own programs (python-dateutil, Radicale, python caldav)
/// run beside ours in the tests, as `deploy/test-conformance` runs schemathesis.
enum PinnedPython {
    /// The environment's python.
    /// - Parameter check: a python line printing the installed versions, which must contain the
    ///   pinned ones, in order, separated by spaces.
    static func make(_ name: String, packages: [String], check: String) async throws -> String {
        let build = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build")
        let environment = build.appendingPathComponent(name)
        let python = environment.appendingPathComponent("bin/python").path
        let wanted = packages.map { $0.components(separatedBy: "==")[1] }.joined(separator: " ")
        if FileManager.default.isExecutableFile(atPath: python), try await Command.run([python, "-c", check]).output.contains(wanted) {
            return python
        }
        let made = try await Command.run(["python3", "-m", "venv", "--clear", environment.path])
        guard made.status == 0 else { throw Failure(description: "could not make \(environment.path): \(made.output)") }
        let installed = try await Command.run([python, "-m", "pip", "install", "-q"] + packages)
        guard installed.status == 0 else {
            throw Failure(description: "could not install \(packages.joined(separator: " ")) (PyPI must be reachable once): \(installed.output)")
        }
        return python
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
