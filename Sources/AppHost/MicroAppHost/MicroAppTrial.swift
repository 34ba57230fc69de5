import AppModel
import FoundationEssentials
import MicroAppProtocol
import Synchronization

/// Runs an app nobody has vouched for yet (a generated one) once, in the host's sandbox with no
/// permission granted, the host's limits and a fresh HOME inside its temporary folder, to see whether it answers
/// `initialize` and draws a view: what it shows, it computed from nothing of the user's.
public enum MicroAppTrial {
    private struct TrialFailure: Error {
        let reason: String
    }

    public enum Outcome: Sendable, Equatable {
        /// Its first view, and what it logged meanwhile.
        case view(ViewUpdate, log: String)
        /// Why it did not get that far (it crashed, stopped, hung), and its log.
        case failed(String, log: String)
    }

    /// Starts `app` at `size`, waits at most `limit` for its first view, and stops it; the app's
    /// log goes to `logFile`.
    public static func run(_ app: InstalledApp, size: ViewSize, environment: [String: String], logFile: URL,
                           limit: Duration = .seconds(10)) async -> Outcome {
        let manifest = app.manifest
        let limits = AppManifest.Limits.trial
        let log = AppLog(url: logFile, limit: limits.logBytes)
        let recipe = LaunchRecipe(manifest: manifest, folder: app.folder, hostEnvironment: environment,
                                  extra: ["TERMCANVAS_APP_ID": app.id, "TERMCANVAS_PROTOCOL": ProtocolVersion.current.description],
                                  grant: .trial)
        let session = SupervisedSession.process(appID: app.id, recipe: recipe, permissions: .none, limits: limits,
                                                log: log, backend: nil)
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let timer = Task {
            try? await Task.sleep(for: limit)
            wake.finish()
        }
        session.start(InitializeParams(instance: "\(app.id)-trial", appID: app.id, appVersion: manifest.version, size: size,
                                       focused: true, visible: true, roles: [], settings: .object([:]), state: .null,
                                       permissions: .none),
                      wake: { wake.yield() })
        var ending: Result<ViewUpdate, TrialFailure>?
        waiting: for await _ in wakes {
            let updates = session.takeUpdates()
            if let view = updates.view {
                ending = .success(view)
                break waiting
            }
            switch updates.status {
            case .restarting(let exit, _)?: ending = .failure(TrialFailure(reason: "it exited (\(exit)) before drawing a view"))
            case .stopped(let reason)?: ending = .failure(TrialFailure(reason: "it stopped: \(reason)"))
            case .notResponding(let reason)?: ending = .failure(TrialFailure(reason: "it stopped answering: \(reason)"))
            default: continue waiting
            }
            break waiting
        }
        timer.cancel()
        session.stop()
        await session.finished()
        let logged = AppLog.read(logFile) ?? ""
        switch ending {
        case .success(let view)?: return .view(view, log: logged)
        case .failure(let failure)?: return .failed(failure.reason, log: logged)
        case nil: return .failed("no view within \(limit.components.seconds) s", log: logged)
        }
    }
}
