/// Byte counts in words: `512 bytes`, `3 KiB`, `2 MiB`, `1.5 GiB`; never rounded down (a count
/// just past a limit does not read as the limit).
public enum ByteCount {
    public static func words(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(max(0, bytes)) bytes" }
        if bytes < 1 << 20 { return "\((bytes + 1023) / 1024) KiB" }
        let (unit, name) = bytes < 1 << 30 ? (Double(1 << 20), "MiB") : (Double(1 << 30), "GiB")
        // Rounded up to a tenth; in floating point, so that no count can overflow.
        let tenths = (Double(bytes) * 10 / unit).rounded(.up)
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) \(name)" : "\(tenths / 10) \(name)"
    }
}
