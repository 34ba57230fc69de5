/// Paths as text, for code that links FoundationEssentials only (Foundation's `NSString` path
/// methods are not there).
public enum FilePaths {
    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → ``.
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The path's last component: `/a/b/` → `b`.
    public static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return trimmed == "/" ? "/" : String(trimmed[trimmed.index(after: slash)...])
    }
}
