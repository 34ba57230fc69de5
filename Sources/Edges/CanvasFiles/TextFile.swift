import FoundationEssentials
import PlainText
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file people edit (a layout, a theme, a manifest, keys) as UTF-8 text, refusing in our
/// words what cannot be one: a missing file, a folder, one the user may not read, one that is
/// not text, one larger than any of ours should be. Never the system's error text.
public enum TextFile {
    /// Far above any file of ours (the largest shipped layout is a few KB); a larger one is
    /// refused before it is read.
    public static let maximumBytes = 1 << 20

    /// - Throws: `FileError` for the whole file, saying what is wrong and what to do.
    public static func read(_ url: URL, shownAs name: String? = nil) throws(FileError) -> String {
        let shown = name ?? url.path
        func refused(_ message: String) -> FileError { FileError(file: shown, line: nil, column: nil, field: "", message: message) }
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw refused(unreachable(errno: errno, what: "file")) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw refused("is a folder, not a file") }
        // As the open that follows will be: by the effective user (`access` asks for the real one).
        guard faccessat(AT_FDCWD, url.path, R_OK, AT_EACCESS) == 0 else {
            throw refused("you may not read it; check its owner and mode (ls -l)")
        }
        let size = Int(info.st_size)
        guard size <= maximumBytes else { throw refused("is \(size >> 10) KiB; a TermCanvas file is at most \(maximumBytes >> 10) KiB") }
        guard let data = try? Data(contentsOf: url), data.count <= maximumBytes else { throw refused("could not be read; try again") }
        guard let text = String(validating: data, as: UTF8.self) else { throw refused("is not UTF-8 text") }
        return text
    }

    /// Why a path could not be looked up (`stat` failed with `errno`), in our words.
    static func unreachable(errno code: Int32, what: String) -> String {
        switch code {
        case EACCES: "you may not reach it: a folder on its path is closed to you; check their modes (ls -ld)"
        case ENOENT, ENOTDIR: "no such \(what); check the path"
        default: SystemErrorWords.describe(code)
        }
    }
}
