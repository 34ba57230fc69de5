import Foundation

/// Paths of the package's built executables, for tests that run them for real.
public enum Products {
    /// The folder holding the test runner, which SwiftPM puts beside the executables.
    public static var directory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    public static var termcanvas: URL { directory.appendingPathComponent("termcanvas") }
    /// The server's own executable, which `termcanvas serve` and `termcanvas user` run.
    public static var termcanvasBFF: URL { directory.appendingPathComponent("termcanvas-bff") }
}
