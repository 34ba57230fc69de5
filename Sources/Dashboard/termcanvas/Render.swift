import AppPanes
import ArgumentParser
import CanvasCore
import CanvasUI
import CommandSupport
import FoundationEssentials
import Logging

/// Prints the first frame of a layout as text: for docs, bug reports and tests.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Print the first frame of the layout as text and exit.")

    @Option(help: "Terminal size as COLSxROWS, e.g. 120x40.")
    var size: String = "120x40"

    @Flag(help: "Keep colours, as ANSI escape sequences.")
    var ansi = false

    @OptionGroup var options: CanvasOptions

    func validate() throws {
        guard let parsed = Size(parsing: size) else { throw ValidationError("--size must look like 120x40, got '\(size)'") }
        guard parsed.width <= 1000, parsed.height <= 1000 else { throw ValidationError("--size is limited to 1000x1000") }
    }

    func run() async throws {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let lines = try await Self.render(options: options, paths: paths, size: Size(parsing: size)!, ansi: ansi)
        print(lines.joined(separator: "\n"))
    }

    @MainActor
    /// - Parameter layout: The layout to render instead of the one `options` names.
    static func render(options: CanvasOptions, paths: Paths, size: Size, ansi: Bool, layout: LayoutData? = nil) throws -> [String] {
        let logger = Logger(label: "termcanvas.render", factory: { _ in SwiftLogNoOpLogHandler() })
        var composition = Composition(paths: paths, logger: logger)
        let library = composition.library(store: try composition.openStore(),
                                          adaptTheme: Composition.themeAdapter(colors: 256, noColor: !ansi))
        let canvas = try layout.map { try CanvasManager(layout: $0) } ?? composition.startingCanvas(option: options.layout, library: library)
        let theme = try composition.startingTheme(option: options.theme, library: library)
        let apps = InstalledApps(paths: paths).inertDescriptors
        let host = composition.makeHost(canvas: canvas, theme: theme, today: options.fixedToday, size: size, library: nil,
                                        catalog: .standard(apps: apps))
        host.perform(host.update(.start(HostStart(notice: composition.startingNotice))))
        defer { host.perform(host.update(.shutdown)) }
        let frame = host.compose()
        return ansi ? frame.ansiLines() : frame.text.components(separatedBy: "\n")
    }
}
