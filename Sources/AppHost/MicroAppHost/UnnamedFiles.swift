#if canImport(Glibc)
import Glibc
#endif

/// Files an app's processes hold open that no folder names any more (unlinked while open, or
/// made with `O_TMPFILE`): they take disk space a measure of its folders does not see. Found
/// through `/proc` from outside the app's world (its keeper's descendants), which the dashboard
/// may read: the app's user namespace is the dashboard's user's. A file kept only as a mapping,
/// not as a descriptor, is bounded by the app's memory limit instead (a mapping counts there).
enum UnnamedFiles {
    /// The blocks, in bytes, of such files on `devices`, each file once, held by the process
    /// `root` and its descendants; stops counting once past `enough`.
    static func bytes(heldUnder root: pid_t, on devices: Set<UInt64>, enough: Int) -> Int {
        var seen = Set<Identity>()
        var bytes = 0
        var pending = [root]
        var visited = 0
        while let pid = pending.popLast(), bytes <= enough, visited < processesLimit {
            visited += 1
            pending += children(of: pid)
            forEachDescriptor(of: pid) { info in
                guard info.st_nlink == 0, info.st_mode & S_IFMT == S_IFREG, devices.contains(UInt64(info.st_dev)),
                      seen.insert(Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else { return }
                bytes += Int(info.st_blocks) * 512
            }
        }
        return bytes
    }

    /// The device a folder is on, for `bytes(heldUnder:on:enough:)`.
    static func device(of path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_dev) : nil
    }

    /// Processes looked into at most: more than an app may start (`limits.processes` is at most 4 096).
    static let processesLimit = 8192

    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The children of every thread of `pid`.
    private static func children(of pid: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        forEachName(in: "/proc/\(pid)/task") { thread in
            let descriptor = open("/proc/\(pid)/task/\(thread)/children", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var text: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while text.count < 1 << 16 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                text += buffer[..<count]
            }
            found += text.split(separator: UInt8(ascii: " ")).compactMap { pid_t(String(decoding: $0, as: UTF8.self)) }
        }
        return found
    }

    /// Calls `body` with what each descriptor of `pid` leads to.
    private static func forEachDescriptor(of pid: pid_t, _ body: (stat) -> Void) {
        forEachName(in: "/proc/\(pid)/fd") { descriptor in
            var info = stat()
            if stat("/proc/\(pid)/fd/\(descriptor)", &info) == 0 { body(info) }
        }
    }

    private static func forEachName(in folder: String, _ body: (String) -> Void) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.first?.isNumber == true { body(name) }
        }
    }
}
