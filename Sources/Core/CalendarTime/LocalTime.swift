import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The system's local time (`TZ`, else `/etc/localtime`), read through the C library's
/// `localtime_r`: Foundation's `TimeZone.current` needs ICU's time-zone data (~1 MB of the
/// dashboard's memory, and FoundationInternationalization linked) for one number.
public enum LocalTime {
    /// Seconds east of UTC at `date`; 0 when the C library cannot say.
    public static func secondsFromGMT(at date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return local.tm_gmtoff
    }

    /// `HH:MM` of `date`, `secondsFromGMT` east of UTC.
    public static func hoursAndMinutes(of date: Date, secondsFromGMT: Int) -> String {
        let seconds = Int((date.timeIntervalSince1970 + Double(secondsFromGMT)).rounded(.down))
        let minutes = (((seconds % 86_400) + 86_400) % 86_400) / 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(minutes / 60)):\(two(minutes % 60))"
    }
}
