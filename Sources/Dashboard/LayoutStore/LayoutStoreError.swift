import FoundationEssentials

/// Why the layout store could not do what was asked, in words a user can act on.
public enum LayoutStoreError: Error, Equatable, CustomStringConvertible {
    case locked(path: String)
    case readOnly(path: String)
    case newerVersion(path: String)
    /// The disk (or the file's size limit) is full: nothing of the failed write was kept.
    case full(path: String)
    /// The file was not a usable database; it was kept aside under `keptAs`.
    case corrupt(path: String, keptAs: String)
    case notFound(name: String)
    case nameTaken(name: String)
    case invalidName(String)
    case noSuchStep(name: String, position: Int)
    case invalidLayout(name: String, reason: String)
    case other(String)

    public var description: String {
        switch self {
        case .locked(let path): "the layout database \(path) is locked by another program; try again in a moment"
        case .readOnly(let path): "the layout database \(path) is read-only; check its permissions"
        case .full(let path): "the disk is full (layout database \(path)); free some space"
        case .newerVersion(let path): "the layout database \(path) was written by a newer TermCanvas; update TermCanvas to use it"
        case .corrupt(let path, let keptAs): "the layout database \(path) was damaged; it was kept as \(keptAs) and a new one started"
        case .notFound(let name): "no layout named '\(name)'"
        case .nameTaken(let name): "a layout named '\(name)' already exists"
        case .invalidName(let reason): "invalid layout name: \(reason)"
        case .noSuchStep(let name, let position): "layout '\(name)' has no history step \(position)"
        case .invalidLayout(let name, let reason): "layout '\(name)' is not valid: \(reason)"
        case .other(let message): message
        }
    }
}
