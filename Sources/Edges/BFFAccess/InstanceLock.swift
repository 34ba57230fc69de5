import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a file, held for as long as this value lives (the process, in practice).
/// The file holds the holder's process id, for `kill $(cat bff.lock)` and for tests.
///
/// The kernel drops it when the process dies however it dies, so a crashed server never leaves a
/// stale lock behind (unlike a pid file).
public final class InstanceLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock without waiting; nil when another process holds it.
    public static func acquire(_ url: URL) throws(BFFAccessError) -> InstanceLock? {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: url.path, errno: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(fd)
            if error == EWOULDBLOCK { return nil }
            throw .io(path: url.path, errno: error)
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) != 0 || pid.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, 0) }) != pid.count {
            let error = errno
            close(fd)
            throw .io(path: url.path, errno: error)
        }
        return InstanceLock(descriptor: fd)
    }
}
