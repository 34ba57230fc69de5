#if canImport(Glibc)
import Glibc
#endif

/// The user's home folder from the password database (what Foundation's `NSHomeDirectory` gives),
/// for a program whose `HOME` is unset; `/` when there is no entry.
public enum UserHome {
    public static var path: String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let home = entry.pw_dir else {
            return "/"
        }
        return String(cString: home)
    }
}
