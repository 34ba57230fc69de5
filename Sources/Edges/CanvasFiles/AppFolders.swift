import AppModel
import AppPackages
import FoundationEssentials
import MicroAppProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Where micro-apps are installed: one folder per app holding its `app.yaml`, in the user's
/// `$XDG_CONFIG_HOME/termcanvas/apps/`, then in the folders shipped with TermCanvas (`apps/`).
/// The first app of an id wins, so a user's copy replaces a shipped one.
public struct AppFolders: Sendable {
    public let user: URL
    public let shipped: [URL]

    public init(user: URL, shipped: [URL]) {
        self.user = user
        self.shipped = shipped
    }

    public static func standard(configDirectory: URL, executable: URL) -> AppFolders {
        AppFolders(user: configDirectory.appendingPathComponent("apps"),
                   shipped: PresetFiles.shippedFolders(executable: executable).map { $0.appendingPathComponent("apps") })
    }

    public static let manifestName = "app.yaml"
    /// Where the user's folder records each package's origin (`ID.json`): beside the apps, hidden,
    /// so that no app's folder holds it.
    public static let originsName = ".packages"

    /// The file recording where the user's app `id` came from.
    public func originFile(of id: String) -> URL {
        user.appendingPathComponent(Self.originsName).appendingPathComponent(id + ".json")
    }

    /// Where the user's app `id` came from; nil when it was not installed from a registry, or the
    /// record cannot be read.
    public func origin(of id: String) -> PackageOrigin? {
        (try? Data(contentsOf: originFile(of: id))).flatMap { try? JSONDecoder().decode(PackageOrigin.self, from: $0) }
    }

    /// Every app found, sorted by id, and a message for each manifest that could not be read.
    public func scan() -> (apps: [InstalledApp], problems: [String]) {
        var apps: [String: InstalledApp] = [:]
        var problems: [String] = []
        for (folder, isShipped) in [(user, false)] + shipped.map({ ($0, true) }) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for entry in entries.sorted() where !entry.hasPrefix(".") {
                let appFolder = folder.appendingPathComponent(entry)
                guard FileManager.default.fileExists(atPath: appFolder.appendingPathComponent(Self.manifestName).path) else { continue }
                do {
                    let app = try Self.read(appFolder, isShipped: isShipped, origin: isShipped ? nil : origin(of: entry))
                    // A remote app's manifest (`entry:`) is for publishing to a server; it runs there.
                    if apps[app.id] == nil, app.manifest.entry == nil { apps[app.id] = app }
                } catch let errors as FileErrors {
                    problems += errors.errors.map(\.description)
                } catch {
                    problems.append("\(error)")
                }
            }
        }
        return (apps.values.sorted { $0.id < $1.id }, problems)
    }

    /// The app folder a command's PATH names: the folder itself, or the folder of the app.yaml
    /// named.
    /// - Throws: `FileError` in our words when there is no manifest there, or it cannot be reached.
    public static func folder(named path: String) throws(FileError) -> URL {
        var folder = URL(fileURLWithPath: path).standardizedFileURL
        if folder.lastPathComponent == manifestName { folder.deleteLastPathComponent() }
        var info = stat()
        guard stat(folder.appendingPathComponent(manifestName).path, &info) != 0 else { return folder }
        let message = errno == ENOENT || errno == ENOTDIR ? "has no \(manifestName): give the folder of a micro-app"
            : TextFile.unreachable(errno: errno, what: "folder")
        throw FileError(file: folder.path, line: nil, column: nil, field: "", message: message)
    }

    /// Reads the app in `folder`.
    /// - Throws: `FileError` for a malformed manifest, or the error reading it.
    public static func read(_ folder: URL, isShipped: Bool, origin: PackageOrigin? = nil) throws -> InstalledApp {
        let file = folder.appendingPathComponent(manifestName)
        let text = try TextFile.read(file)
        let manifest = try AppManifestFile.parse(text, file: file.path)
        let digest = SHA256Digest.hex(of: Array(text.utf8))
        return InstalledApp(manifest: manifest, folder: folder.standardizedFileURL, digest: digest, isShipped: isShipped, origin: origin)
    }
}
