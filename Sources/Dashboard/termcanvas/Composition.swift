import CalendarTime
import CanvasCore
import CanvasFiles
import CanvasStyle
import CanvasUI
import CommandSupport
import FoundationEssentials
import LayoutStore
import MicroAppHost
import Logging
import Widgets
import SQLiteFiles

/// Builds the canvas from its parts; the one place that chooses concrete types.
@MainActor
struct Composition {
    let paths: Paths
    let logger: Logger
    /// Problems found while starting that the user should see (shown in the status bar).
    private(set) var notices: [Notice] = []

    init(paths: Paths, logger: Logger) {
        self.paths = paths
        self.logger = logger
    }

    /// Adds a problem for the status bar.
    mutating func note(_ notice: Notice) {
        notices.append(notice)
    }

    /// Opens the layout database; when it cannot be used, a throwaway one in memory keeps the
    /// dashboard running (a notice says so). Throws only when not even that opens.
    mutating func openStore() throws -> LayoutStore {
        do {
            let opened = try LayoutStore.open(at: paths.layoutDatabase,
                                              afterUncleanEnd: !RunMark.endedRuns(in: paths.runDirectory).isEmpty)
            if let recovered = opened.recovered {
                logger.error("layout database recovered", metadata: ["problem": "\(recovered)"])
                notices.append(.error("\(recovered)"))
            }
            return opened.store
        } catch {
            logger.error("layout database unusable", metadata: ["error": "\(error)"])
            // First what it means, as the status bar may cut a long line; then why, readably.
            let reason = (error as? LayoutStoreError)?.description
                ?? "\(paths.layoutDatabase.path): \(SQLiteFile.reason(error))"
            notices.append(.error("Changes will not be saved: \(reason)"))
            return try LayoutStore.inMemory()
        }
    }

    func library(store: LayoutStore, adaptTheme: @escaping @Sendable (Theme) -> Theme) -> DashboardLibrary {
        DashboardLibrary(
            store: store,
            presets: .standard(configDirectory: paths.configDirectory, executable: Paths.executable),
            adaptTheme: adaptTheme
        )
    }

    /// The canvas to start with: `--layout` (a name or a file), else the last used layout, else the
    /// `default` preset, else the built-in default.
    /// - Throws: when `--layout` names nothing usable.
    mutating func startingCanvas(option: String?, library: DashboardLibrary) throws -> CanvasManager {
        if let option {
            if LayoutSource.looksLikeFile(option) {
                let url = URL(fileURLWithPath: option)
                return try CanvasManager(layout: try LayoutFile.parse(try TextFile.read(url, shownAs: option), file: option))
            }
            return try CanvasManager(layout: try library.layoutNow(option))
        }
        if let last = try? library.store.preference(DashboardLibrary.layoutPreference) {
            do {
                return try CanvasManager(layout: try library.layoutNow(last))
            } catch {
                notices.append(.error("Could not restore layout '\(last)': \(error)"))
            }
        }
        do {
            return try CanvasManager(layout: try library.layoutNow("default"))
        } catch {
            notices.append(.error("\(error)"))
            return try CanvasManager(layout: DefaultLayout.make())
        }
    }

    /// The shared canvas to start with, when `--layout` (else the last used layout) names one
    /// this machine keeps a copy of and no layout saved here has that name.
    mutating func startingSharedCopy(option: String?, library: DashboardLibrary) -> SharedCanvasCopy? {
        guard let name = option ?? (try? library.store.preference(DashboardLibrary.layoutPreference)) ?? nil,
              !LayoutSource.looksLikeFile(name) else { return nil }
        do {
            guard try library.store.layout(named: name) == nil else { return nil }
            return try library.store.sharedCopy(named: name, server: library.server)
        } catch {
            logger.error("shared canvas copy unreadable", metadata: ["name": "\(name)", "error": "\(error)"])
            notices.append(.error("\(error)"))
            return nil
        }
    }

    /// The theme to start with: `--theme` (then remembered), else the remembered one, else dark.
    mutating func startingTheme(option: String?, library: DashboardLibrary) throws -> Theme {
        if let option {
            let theme = try library.themeNow(option)
            try? library.store.setPreference(DashboardLibrary.themePreference, to: option)
            return library.adaptTheme(theme)
        }
        let remembered = (try? library.store.preference(DashboardLibrary.themePreference)) ?? Theme.dark.name
        do {
            return library.adaptTheme(try library.themeNow(remembered))
        } catch {
            notices.append(.error("\(error)"))
            return library.adaptTheme(.dark)
        }
    }

    /// What every key does: the defaults for `catalog`, changed by the user's `keys.yaml`.
    /// - Throws: `FileError` naming file:line for a mistake in it; a missing file is no mistake.
    func commandTable(for catalog: WidgetCatalog) throws -> CommandTable {
        let standard = CommandTable.standard(for: catalog)
        let file = paths.keyMap
        guard FileManager.default.fileExists(atPath: file.path) else { return standard }
        let text = try TextFile.read(file)
        let edits = try KeyMapFile.parse(text, file: file.path)
        do {
            return try standard.applying(edits)
        } catch {
            throw KeyMapFile.error(error, file: file.path)
        }
    }

    /// `commandTable(for:)`, or the defaults with a notice saying why the user's keys are not in use.
    mutating func commandTableOrDefaults(for catalog: WidgetCatalog) -> CommandTable {
        do {
            return try commandTable(for: catalog)
        } catch {
            logger.error("key map not used", metadata: ["error": "\(error)"])
            notices.append(.error("Default keys in use: \(error)"))
            return CommandTable.standard(for: catalog)
        }
    }

    mutating func makeHost(canvas: CanvasManager, theme: Theme, today: CalendarDate?, size: Size,
                           library: DashboardLibrary?, catalog: WidgetCatalog = .builtIn, io: HostIO = HostIO(),
                           ports: HostPorts = HostPorts()) -> CanvasHost {
        let clock = today.map(CanvasClock.fixed) ?? CanvasClock()
        let commands = commandTableOrDefaults(for: catalog)
        return CanvasHost(manager: canvas, catalog: catalog, bus: EventBus(now: clock.now), clock: clock,
                          theme: theme, logger: logger, size: size, library: library, io: io, commands: commands,
                          ports: ports)
    }

    /// Every problem found while starting, the first (usually the gravest: a layout database
    /// that cannot be used) first, for the status bar.
    var startingNotice: Notice? {
        guard !notices.isEmpty else { return nil }
        let text = notices.map(\.text).joined(separator: " · ")
        return notices.contains { $0.kind == .error } ? .error(text) : .info(text)
    }

    /// Fits a theme to a terminal: monochrome for `NO_COLOR`, explicit 16-colour choices when needed.
    static func themeAdapter(colors: Int, noColor: Bool) -> @Sendable (Theme) -> Theme {
        { theme in noColor ? theme.monochrome : colors < 256 ? theme.sixteenColors : theme }
    }
}

/// Tells a layout file from a layout name on the command line.
enum LayoutSource {
    static func looksLikeFile(_ text: String) -> Bool {
        text.contains("/") || text.hasSuffix(".yaml") || text.hasSuffix(".yml")
    }
}
