import AppInstalls
import AppModel
import AppPanes
import ArgumentParser
import BFFAccess
import CanvasCore
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import Logging
import MicroAppHost
import NcursesTerminal
import ServerSync
import SessionBus
import Synchronization
import Widgets

/// Runs the dashboard in the terminal.
struct Dashboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the dashboard (the default).")

    @OptionGroup var options: CanvasOptions

    @Option(help: ArgumentHelp(
        "Use this micro-app server instead of your local one (log in first: termcanvas login URL --user NAME).",
        valueName: "URL"))
    var bff: String?

    @Option(help: ArgumentHelp(
        "How a reminder reaches you beside the message line: auto (a notification where the terminal shows them, else the bell), "
            + "bell, osc9, osc777, desktop (a notification on the desktop's session bus) or off.", valueName: "HOW"))
    var alert: TerminalAlert = .auto

    func validate() throws {
        if let bff {
            do { _ = try ServerURL(bff) } catch { throw ValidationError("--bff: \(error)") }
        }
    }

    func run() async throws {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let logger = LogSetup.bootstrapFile(at: paths.logFile, label: "termcanvas")
        logger.info("starting", metadata: ["version": "\(TermCanvas.configuration.version)"])
        defer { HTTPClient.closeForExit() }
        try await Self.runDashboard(options: options, bff: bff, alert: alert, paths: paths, logger: logger)
        logger.info("stopped")
    }

    @MainActor
    private static func runDashboard(options: CanvasOptions, bff: String?, alert: TerminalAlert, paths: Paths, logger: Logger) async throws {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        MicroAppWidget.trapText = ProcessInfo.processInfo.environment["TERMCANVAS_TEST_TRAP"]
        // Everything that can fail on bad input is resolved before the terminal changes mode,
        // so its message lands on a normal screen.
        let connector = BFFConnector(paths: paths, environment: ProcessInfo.processInfo.environment, logger: logger)
        let remote = try connector.remoteTarget(bff)
        // First, so the server apps' cache opens on another core while this one reads the layout.
        let mailbox = Mailbox()
        let link = MicroAppLink(paths: paths, remote: remote?.credential, mailbox: mailbox, logger: logger)
        var composition = Composition(paths: paths, logger: logger)
        let store = try composition.openStore()
        var library = composition.library(store: store, adaptTheme: { $0 })
        library.server = Paths.serverKey(for: remote?.credential)
        let sharedCopy = try await startingSharedCopy(options: options, library: library, composition: &composition,
                                                      connector: connector, remote: remote, logger: logger)
        let canvas = if let sharedCopy { try CanvasManager(layout: sharedCopy.replica.shown) }
            else { try composition.startingCanvas(option: options.layout, library: library) }
        let baseTheme = try composition.startingTheme(option: options.theme, library: library)
        let installed = InstalledApps(paths: paths)
        for problem in installed.problems {
            logger.warning("micro-app not loaded", metadata: ["problem": "\(problem)"])
            composition.note(.error("Micro-app not loaded: \(problem)"))
        }
        let backend = BackendRelay()
        let remoteApps = RemoteRelay(local: StoredGrants(store: store, logger: logger))
        let runtime = MicroAppRuntime(environment: ProcessInfo.processInfo.environment, logDirectory: paths.appLogDirectory,
                                      dataDirectory: paths.appDataDirectory,
                                      grants: remoteApps, backend: backend, remote: remoteApps, logger: logger)
        let crashed = CrashRecovery.previousRun(of: canvas.layout.name, runs: paths.runDirectory, runtime: runtime,
                                                installed: installed.apps, logger: logger)
        if let crashed { composition.note(.error(crashed.notice)) }
        AppsReinstalled.prepare()
        let runMark = CrashRecovery.mark(paths.runDirectory, layout: canvas.layout.name, logger: logger)
        // Only a clean end removes the mark: a thrown error is one, a trap or a kill is not.
        defer { runMark?.end() }

        let terminal = try NcursesTerminal(options: .init(colors: !noColor))
        defer { terminal.stop() }
        let adapt = Composition.themeAdapter(colors: terminal.colorCount, noColor: noColor)
        var fitted = composition.library(store: store, adaptTheme: adapt)
        fitted.server = library.server
        let catalog = WidgetCatalog.standard(apps: installed.descriptors(runtime: runtime))
        let sharedLink = SharedCanvasLink(logger: logger) { canvas, news in mailbox.post(.shared(canvas: canvas, news)) }
        let packages = PackageOffers(registry: Registry(key: remote?.credential?.server ?? Registry.local))
        let otherRegistries = OtherRegistries(connector: connector, mailbox: mailbox)
        let clients = RegistryClients(connected: packages.registry, backend: backend, others: otherRegistries)
        let installer = CatalogInstaller(offers: packages, clients: clients, paths: paths, runtime: runtime, mailbox: mailbox, logger: logger)
        let ports = HostPorts(
            widgetRequests: { link.handle($0) }, sharedCanvasRequests: { sharedLink.handle($0) }, savesOnServer: remote != nil,
            appGenerator: DashboardAppWriter(paths: paths, environment: ProcessInfo.processInfo.environment, runtime: runtime, logger: logger),
            catalogSource: RegistryCatalog(standard: catalog, runtime: runtime, packages: packages,
                                           installedByUser: Set(installed.apps.filter { !$0.isShipped }.map(\.id))),
            willCallWidget: runMark.map { runMark in { app, doing in runMark.noteCall(app: app.rawValue, doing: doing) } },
            installApp: { installer.install($0) },
            alert: Self.alerting(alert.resolved(environment: ProcessInfo.processInfo.environment), terminal: terminal, mailbox: mailbox))
        let host = composition.makeHost(canvas: canvas, theme: adapt(baseTheme), today: options.fixedToday,
                                        size: terminal.size, library: fitted, catalog: catalog, io: HostIO(mailbox: mailbox), ports: ports)
        let layoutShown = host.bus.subscribe(to: LayoutChanged.self) { _, _ in runMark?.layoutChanged(to: host.manager.layout.name) }
        let followUp = RegistryFollowUp(clients: clients, paths: paths, runtime: runtime, mailbox: mailbox, logger: logger)
        let registryRead = host.bus.subscribe(to: RegistryLoaded.self) { loaded, _ in
            if loaded.origin == .server { followUp.read(listing: loaded.apps) }
        }
        var reinstalls: AppsReinstalled?
        let sessionKeeper = SessionKeeper()
        let watchdog = remote == nil ? LocalServerWatchdog(connector: connector, bus: host.bus) : nil
        defer {
            layoutShown.cancel()
            registryRead.cancel()
            reinstalls?.cancel()
            watchdog?.cancel()
            sessionKeeper.cancel()
            otherRegistries.cancel()
        }
        // A layout read from a file starts a history of its own.
        let restoringHistory = !(options.layout.map(LayoutSource.looksLikeFile) ?? false)
        // On a team server the status bar says who and where: `ann@team.example:7450`.
        let account = remote?.credential.map { "\($0.user)@" + PackageOrigin.registryName($0.server) }
        let preset = sharedCopy == nil && restoringHistory ? try? library.presetOrigin(of: canvas.layout.name) : nil
        host.perform(host.update(.start(HostStart(shared: sharedCopy, restoringHistory: restoringHistory,
                                                  processStarted: TermCanvas.started, notice: composition.startingNotice,
                                                  account: account.map(TerminalText.safe), preset: preset,
                                                  presetNames: Set(library.presets.layoutNames())))))
        // The micro-apps' server is found or started (and libcurl loaded) once the first frame is out
        // and the widgets' first requests are answered from the cache and drawn: that work would
        // compete with drawing them. Until the server answers, the widgets show the offline cache.
        await AppLoop.run(host, on: terminal) {
            runtime.begin(pausing: crashed.map { _ in CrashRecovery.pausedReason })
            // After the first frame: its dispatch source costs the start a thread.
            reinstalls = AppsReinstalled(paths: paths, installed: installed.apps, runtime: runtime, mailbox: mailbox, logger: logger)
            link.sync.connect(afterQueuedCommands: {
                await mailbox.drawn()
                if Task.isCancelled { return nil }  // the dashboard is stopping
                do {
                    var target = if let remote { remote } else { try await connector.connectLocal().value }
                    if let credential = target.credential, credential.renewal != nil {
                        do {
                            target = .remote(try await SessionRenewal.fresh(credential, store: paths.credentials, logger: logger))
                        } catch {
                            mailbox.post(.notice(.error("\(error)")))
                        }
                    }
                    let client = target.client(logger: logger)
                    if let credential = target.credential, credential.renewal != nil {
                        sessionKeeper.start(credential, client: client, store: paths.credentials, mailbox: mailbox, logger: logger)
                    }
                    backend.use(client)
                    remoteApps.use(client)
                    sharedLink.use(client)
                    return client
                } catch {
                    mailbox.post(.notice(.error("Micro-app server unavailable: \(error)")))
                    return nil
                }
            })
        }
        // No micro-app outlives the dashboard: each is asked to shut down, then signalled.
        await runtime.stopAll()
        await link.sync.stop()
        host.perform(host.update(.shutdown))
        await sharedLink.stop()
        await host.io.generatorStopped()
        await host.io.drain()
        let failure = await saveOnExit(host: host, library: fitted, logger: logger)
        // The terminal first, so the message lands on the normal screen and stays there.
        terminal.stop()
        if let failure { Console.error((TerminalText.safe(failure) + "\n")) }
    }

    /// The shared canvas to open, if the layout to start with is one: the copy kept here, else,
    /// for a `--layout` name this machine has no layout of, the server's canvas of that name
    /// (read before the terminal changes mode, so a failure prints as any bad option does).
    @MainActor
    private static func startingSharedCopy(options: CanvasOptions, library: DashboardLibrary, composition: inout Composition,
                                           connector: BFFConnector, remote: BFFTarget?, logger: Logger) async throws -> SharedCanvasCopy? {
        if let copy = composition.startingSharedCopy(option: options.layout, library: library) { return copy }
        guard let name = options.layout, !LayoutSource.looksLikeFile(name), (try? library.layoutNow(name)) == nil else { return nil }
        let target = if let remote { remote } else { try await connector.connectLocal().value }
        let copy: SharedCanvasCopy
        do {
            copy = try await LayoutCommand.firstCopy(named: name, on: target.client(logger: logger))
        } catch let error as CommandError {
            // Without --bff the server is this machine's own, which the user need not know of.
            throw try await LayoutCommand.noLayout(named: name, in: library, orOnServer: remote == nil ? nil : error)
        }
        try library.store.keep(copy, server: library.server)
        return copy
    }

    /// Saves the layout when the loop ended without the host having saved it (a signal, a closed
    /// terminal, a quit key pressed again while the save ran) and without the user having chosen
    /// to quit without saving.
    /// - Returns: the line to print on standard error when the save failed.
    @MainActor
    static func saveOnExit(host: CanvasHost, library: some LayoutLibrary, logger: Logger) async -> String? {
        guard !host.quitSave.isSettled else { return nil }
        do {
            try await library.save(host.currentLayout())
            return nil
        } catch {
            logger.error("could not save the layout on quit", metadata: ["error": "\(error)"])
            return "termcanvas: could not save the layout: \(error)"
        }
    }
}

extension Dashboard {
    /// What alerts the user to a reminder: the terminal's bell or notification, or a desktop
    /// notification sent off the main actor (its failure said once, on the message line).
    @MainActor
    static func alerting(_ alert: TerminalAlert, terminal: NcursesTerminal, mailbox: Mailbox) -> @MainActor (String) -> Void {
        guard alert == .desktop else { return { text in terminal.alert(text, by: alert) } }
        let told = ToldOnce()
        return { text in
            Task.detached {
                guard let problem = DesktopNotification.send(summary: "TermCanvas", body: text), told.first() else { return }
                mailbox.post(.notice(.error("\(problem)")))
            }
        }
    }
}

/// Whether something was said already: the first call says yes, every later one no.
private final class ToldOnce: Sendable {
    private let told = Atomic(false)

    func first() -> Bool { !told.exchange(true, ordering: .relaxed) }
}

extension TerminalAlert: ExpressibleByArgument {}
