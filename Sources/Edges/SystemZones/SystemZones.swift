import CalendarTime
import Glibc
import Synchronization

/// The system's time zone database (`/usr/share/zoneinfo`, the Debian package `tzdata`): each
/// zone read once, on first use, and kept. No Foundation: the dashboard links this too.
public enum SystemZones {
    /// Where the database is; `TZDIR` as the C library reads it, else the usual place.
    static let folder = getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    /// A zone's file, at most: the largest real one is a few kilobytes.
    static let maximumFileBytes = 256 * 1024

    private static let cache = Mutex<[String: ZoneRules?]>([:])

    /// The zone named `name` (`Europe/Paris`); nil for a name the database does not have, or one
    /// that is no zone's name at all (`../../etc/passwd`), which is never looked for.
    @Sendable public static func zone(_ name: String) -> ZoneRules? {
        if let known = cache.withLock({ $0[name] }) { return known }
        guard ZoneRules.isZoneName(name) else { return nil }
        let rules = read(name)
        cache.withLock { cache in
            // Names the database lacks are kept too, but only so many: a hostile calendar names
            // a million.
            if rules != nil || cache.count < 4_096 { cache[name] = rules }
        }
        return rules
    }

    private static func read(_ name: String) -> ZoneRules? {
        let descriptor = open("\(folder)/\(name)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= maximumFileBytes {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        guard bytes.count <= maximumFileBytes else { return nil }
        return try? ZoneRules(tzif: bytes)
    }
}
