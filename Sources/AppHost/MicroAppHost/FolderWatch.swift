import Dispatch
import PlainText
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// What folders hold: blocks on disk, and files and folders.
public struct FolderUsage: Equatable, Sendable {
    public var bytes = 0
    public var entries = 0
    /// Folders nested past `FolderWatch.depthLimit`, which were not looked into.
    public var tooDeep = false
}

/// What a running app keeps in its own folders (its temporary and data folders), measured when
/// the kernel says something in them changed (inotify: never on a timer, so an idle app costs
/// nothing), at most once every `spacing`. Past its limit in bytes (blocks on disk: a sparse file
/// counts what it takes) or in entries (files and folders: each is an inode, and each folder a
/// watch, of the user's), `over` is called once. Between two measures an app can add at most what
/// it writes in `spacing`, and no single file past `RLIMIT_FSIZE`. Files its processes hold open
/// though unlinked count too (`UnnamedFiles`).
final class FolderWatch: Sendable {
    typealias Usage = FolderUsage

    /// Files and folders an app may keep in its folders, whatever their size.
    static let entriesLimit = 20_000
    /// The least time between two measures of one app's folders.
    static let spacing = DispatchTimeInterval.milliseconds(100)
    /// What inotify reports: anything that adds to a folder or a file.
    private static let events = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)

    private struct State {
        var watch: PipePoller.Watch?
        var measuredAt = DispatchTime(uptimeNanoseconds: 0)
        var scheduled = false
        var reported = false
    }

    private let descriptor: Int32
    private let folders: [String]
    /// The app's keeper, whose descendants' unnamed files count, and the folders' devices.
    private let keeper: pid_t
    private let devices: Set<UInt64>
    private let bytesLimit: Int
    private let queue: DispatchQueue
    private let over: @Sendable (Usage) -> Void
    private let state = Mutex(State())

    /// Watches `folders` (and what `keeper`'s descendants hold open there), measures them once
    /// now (a data folder may be over already), and calls `over` on `queue` once they hold more
    /// than `bytesLimit` or `entriesLimit`. Nil when inotify
    /// cannot be had (the user's instances are spent): the app then runs with `RLIMIT_FSIZE` only.
    init?(folders: [String], keeper: pid_t, bytesLimit: Int, queue: DispatchQueue, over: @escaping @Sendable (Usage) -> Void) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.folders = folders
        self.keeper = keeper
        devices = Set(folders.compactMap(UnnamedFiles.device))
        self.bytesLimit = bytesLimit
        self.queue = queue
        self.over = over
        let watch = PipePoller.shared.watch(descriptor, for: .readable, on: queue) { [weak self] in self?.changed() }
        state.withLock { $0.watch = watch }
        queue.async { [self] in
            measure()
            state.withLock { $0.watch }.map(PipePoller.shared.arm)
        }
    }

    /// Watches the folders of a started app: its temporary folder, and its data folder.
    convenience init?(_ started: Spawner.Started, queue: DispatchQueue, over: @escaping @Sendable (Usage) -> Void) {
        self.init(folders: [started.temporaryFolder] + [started.launch.dataFolder?.path].compactMap { $0 }, keeper: started.keeper,
                  bytesLimit: started.launch.limits.diskBytes, queue: queue, over: over)
    }

    /// A watch never cancelled (its owner let go of it) still gives its descriptor back.
    deinit {
        if let watch = state.withLock({ $0.watch }) {
            PipePoller.shared.cancel(watch)
            close(descriptor)
        }
    }

    /// Stops watching and closes the descriptor (on the queue, never under a read).
    func cancel() {
        queue.async { [self] in
            guard let watch = state.withLock({ state in defer { state.watch = nil }; return state.watch }) else { return }
            PipePoller.shared.cancel(watch)
            close(descriptor)
        }
    }

    /// Drains the events (what changed does not matter: the folders are measured whole), then
    /// measures now, or once `spacing` has passed since the last measure.
    private func changed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // Now; at `due`, once `spacing` has passed since the last measure; or not (one is due already).
        let (watch, now, due) = state.withLock { state -> (PipePoller.Watch?, Bool, DispatchTime?) in
            let due = state.measuredAt + Self.spacing
            guard DispatchTime.now() < due else { return (state.watch, true, nil) }
            defer { state.scheduled = true }
            return (state.watch, false, state.scheduled ? nil : due)
        }
        guard let watch else { return }
        if now { measure() }
        if let due {
            queue.asyncAfter(deadline: due) { [self] in
                let watched = state.withLock { state in
                    state.scheduled = false
                    return state.watch != nil
                }
                if watched { measure() }
            }
        }
        PipePoller.shared.arm(watch)
    }

    private func measure() {
        var usage = Self.usage(of: folders, watchingWith: descriptor, entriesLimit: Self.entriesLimit)
        if usage.bytes <= bytesLimit {
            usage.bytes += UnnamedFiles.bytes(heldUnder: keeper, on: devices, enough: bytesLimit - usage.bytes)
        }
        let report = state.withLock { state -> Bool in
            state.measuredAt = .now()
            guard !state.reported, usage.bytes > bytesLimit || usage.entries > Self.entriesLimit || usage.tooDeep else { return false }
            state.reported = true
            return true
        }
        if report { over(usage) }
    }

    /// Why an app whose folders hold `usage` is stopped, for its pane: `keeping over 256 MiB
    /// (limits.disk) in its folders`.
    static func stopReason(_ usage: Usage, bytesLimit: Int) -> String {
        let what = usage.tooDeep ? "folders nested over \(depthLimit) deep"
            : usage.entries > entriesLimit ? "over \(entriesLimit) files" : "over \(ByteCount.words(bytesLimit)) (limits.disk)"
        return "keeping \(what) in its folders"
    }

    /// What was found, for the log: `300 MiB in 12 files`.
    static func describe(_ usage: Usage) -> String {
        "\(ByteCount.words(usage.bytes)) in \(usage.entries)\(usage.entries > entriesLimit ? " or more" : "") files and folders"
    }


    /// The blocks and entries under `folders`, symbolic links not followed, each folder watched
    /// with `inotify` (adding a watch again is harmless). Folders are opened by descriptor, one
    /// level at a time, so no name (not UTF-8, or a path past PATH_MAX) hides what is under it;
    /// past `depthLimit` levels, or `entriesLimit` entries, it stops and says so.
    static func usage(of folders: [String], watchingWith inotify: Int32, entriesLimit: Int) -> Usage {
        var usage = Usage()
        for folder in folders {
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 { add(descriptor, depth: 0, to: &usage, watchingWith: inotify, entriesLimit: entriesLimit) }
        }
        return usage
    }

    /// Folders deeper than this are not looked into: the app is over its limit.
    static let depthLimit = 32

    /// Adds what the folder open at `descriptor` holds, and closes it.
    private static func add(_ descriptor: Int32, depth: Int, to usage: inout Usage, watchingWith inotify: Int32, entriesLimit: Int) {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(directory) }
        _ = inotify_add_watch(inotify, "/proc/self/fd/\(descriptor)", events | UInt32(IN_ONLYDIR))
        while usage.entries <= entriesLimit, !usage.tooDeep, let entry = readdir(directory) {
            let child = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32? in
                let name = name.bindMemory(to: CChar.self)
                guard let start = name.baseAddress, !(name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))) else { return nil }
                var info = stat()
                guard fstatat(descriptor, start, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                usage.entries += 1
                usage.bytes += Int(info.st_blocks) * 512
                guard info.st_mode & S_IFMT == S_IFDIR else { return nil }
                return openat(descriptor, start, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard let child, child >= 0 else { continue }
            guard depth < depthLimit else {
                usage.tooDeep = true
                close(child)
                break
            }
            add(child, depth: depth + 1, to: &usage, watchingWith: inotify, entriesLimit: entriesLimit)
        }
    }
}
