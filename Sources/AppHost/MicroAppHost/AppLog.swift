import LogFiles
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PrivateFiles
import Synchronization

/// A micro-app's own log (its stderr and `log` lines): one escaped line per line the app wrote,
/// in a private file of at most `limit` bytes: past half of it, the file becomes `NAME.1`,
/// replacing the older one. Never the screen.
final class AppLog: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var size = 0
        /// Bytes of stderr not yet ended by a newline.
        var partial: [UInt8] = []
    }

    /// Longer stderr lines are cut here.
    static let lineLimit = 4096

    let url: URL
    private let limit: Int
    private let state = Mutex(State())

    init(url: URL, limit: Int) {
        self.url = url
        self.limit = max(8192, limit)
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Writes one line with a time and a tag.
    func write(_ tag: String, _ text: String) {
        state.withLock { append("\(Self.time()) \(tag): \(LogText.escaped(text))\n", &$0) }
    }

    /// Takes raw stderr bytes, writing each complete line.
    func appendErrorOutput(_ bytes: [UInt8]) {
        state.withLock { state in
            var start = bytes.startIndex
            for index in bytes.indices where bytes[index] == 0x0A {
                state.partial += bytes[start..<index].prefix(max(0, Self.lineLimit - state.partial.count))
                flushPartial(&state)
                start = index + 1
            }
            state.partial += bytes[start...].prefix(max(0, Self.lineLimit - state.partial.count))
            if bytes.isEmpty, !state.partial.isEmpty { flushPartial(&state) }  // the end of the stream
        }
    }

    private func flushPartial(_ state: inout State) {
        let text = String(decoding: state.partial, as: UTF8.self)
        state.partial = []
        append("\(Self.time()) stderr: \(LogText.escaped(text))\n", &state)
    }

    private func append(_ line: String, _ state: inout State) {
        if state.descriptor < 0 || state.size + line.utf8.count > limit / 2 { reopen(&state) }
        guard state.descriptor >= 0 else { return }
        var line = line
        line.withUTF8 { bytes in _ = Glibc.write(state.descriptor, bytes.baseAddress, bytes.count) }
        state.size += line.utf8.count
    }

    /// Opens the file, moving a full one to `NAME.1` first.
    private func reopen(_ state: inout State) {
        if state.descriptor >= 0 {
            close(state.descriptor)
            state.descriptor = -1
            rename(url.path, url.path + ".1")
        }
        guard (try? PrivatePath.makeDirectory(url.deletingLastPathComponent())) != nil else { return }
        for attempt in 0..<2 {
            state.descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard state.descriptor >= 0 else { return }
            _ = fchmod(state.descriptor, 0o600)
            var info = stat()
            state.size = fstat(state.descriptor, &info) == 0 ? Int(info.st_size) : 0
            guard state.size > limit / 2, attempt == 0 else { return }
            close(state.descriptor)
            rename(url.path, url.path + ".1")
        }
    }

    private static func time() -> String {
        Date.ISO8601FormatStyle().format(Date())
    }

    /// The log's text, older file first, for `termcanvas apps log`.
    static func read(_ url: URL) -> String? {
        let older = try? String(contentsOf: URL(fileURLWithPath: url.path + ".1"), encoding: .utf8)
        let newer = try? String(contentsOf: url, encoding: .utf8)
        guard older != nil || newer != nil else { return nil }
        return (older ?? "") + (newer ?? "")
    }
}
