internal import CNcursesw
import CanvasCore
import CanvasUI

#if canImport(Glibc)
import Glibc
#endif

/// The terminal on ncursesw: the only type that calls curses.
///
/// Curses sets the terminal up, reads keys and supplies terminfo; frames are written by a
/// `FrameWriter` of our own (fewer bytes than curses sends: only the attributes that change, and
/// the shortest moves), except on a terminal whose attributes are not ECMA-48's, which curses
/// draws. All curses calls happen on the main actor, on the main thread, whose loop (`MainLoop`)
/// calls here when the terminal or a signal becomes readable (see `InputSources`); keys are then
/// read without waiting.
@MainActor
public final class NcursesTerminal: Terminal {
    public struct Options: Sendable {
        /// Use colours (false when `NO_COLOR` is set).
        public var colors: Bool
        public var mouse: Bool
        /// How long an Esc waits for the rest of an escape sequence.
        public var escapeDelayMilliseconds: Int32

        public init(colors: Bool = true, mouse: Bool = true, escapeDelayMilliseconds: Int32 = 25) {
            self.colors = colors
            self.mouse = mouse
            self.escapeDelayMilliseconds = escapeDelayMilliseconds
        }
    }

    public private(set) var size: Size
    /// Colours the terminal shows: 0 (none or `NO_COLOR`), 8, 16, 256 or more.
    public var colorCount: Int { palette.colors }
    private let sources: InputSources
    private var palette: CursesPalette
    private var running = true
    /// Input wakes in a row that read nothing while the terminal still polled readable.
    private var emptyWakes = 0
    private var paste = PasteReader()
    /// nil when curses draws the frames.
    private var writer: FrameWriter<Terminfo>?
    /// A frame's bytes, kept to be reused by the next.
    private var frameBytes: [UInt8] = []
    /// Where curses was last told to show the cursor, when curses draws the frames.
    private var cursesCursor: Point?

    /// Starts curses on standard input and output.
    /// - Throws: `NcursesError` when they are not a terminal, TERM names no known terminal
    ///   type, or the input thread cannot be set up.
    public init(options: Options = Options()) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw NcursesError.notATerminal }
        _ = tc_setup_locale()
        guard tc_start(Int32(options.escapeDelayMilliseconds), options.colors ? 1 : 0, options.mouse ? 1 : 0) == 0 else {
            throw NcursesError.initFailed(terminalType: getenv("TERM").map { String(cString: $0) })
        }
        do {
            sources = try InputSources()
        } catch {
            tc_stop()
            throw error
        }
        tc_install_signal_pipe(sources.signalFD)
        palette = CursesPalette(colors: Int(tc_colors()))
        if let terminfo = Terminfo(colors: palette.colors) {
            writer = FrameWriter(moves: terminfo, colors: palette.colors, writesBottomRight: terminfo.writesBottomRight,
                                 erasesWithBackground: terminfo.erasesWithBackground)
        }
        var rows: Int32 = 0, cols: Int32 = 0
        _ = tc_update_size(&rows, &cols)
        size = Size(width: Int(cols), height: Int(rows))
    }

    /// Restores the terminal. Safe to call more than once.
    public func stop() {
        running = false
        sources.stop()
        if writer != nil {
            frameBytes.removeAll(keepingCapacity: true)
            writer?.reset(into: &frameBytes)
            send(frameBytes)
        }
        tc_stop()
    }

    public func startInput(_ handle: @escaping @MainActor ([InputEvent]?) -> Void) {
        guard running else { return handle(nil) }
        sources.start(terminalFD: STDIN_FILENO) { [weak self] wake in self?.woke(by: wake, handle: handle) }
    }

    private func woke(by wake: Wake, handle: @MainActor ([InputEvent]?) -> Void) {
        guard running else { return }
        switch wake {
        case .input:
            let events = readKeys()
            if events.isEmpty {
                if terminalHasEnded() {
                    running = false
                    sources.stop()
                    handle(nil)
                }
                return
            }
            handle(events)
        case .resize:
            var rows: Int32 = 0, cols: Int32 = 0
            _ = tc_update_size(&rows, &cols)
            if writer == nil {
                tc_clear_on_next_refresh()
            } else {
                // Curses clears the screen now, not at a refresh after the frame is written.
                tc_clear_now()
                writer?.forget()
            }
            size = Size(width: Int(cols), height: Int(rows))
            handle([.resize(size)])
        case .terminate:
            running = false
            sources.stop()
            handle(nil)
        }
    }

    public func present(_ changes: [CellRun], frame: Buffer) {
        if writer != nil {
            frameBytes.removeAll(keepingCapacity: true)
            writer?.write(changes, frame: frame, into: &frameBytes)
            writer?.place(cursor: frame.cursor, on: frame.size, into: &frameBytes)
            if !frameBytes.isEmpty { send(frameBytes) }
            return
        }
        guard !changes.isEmpty || frame.cursor != cursesCursor else { return }
        cursesCursor = frame.cursor
        let blank = [wchar_t(bitPattern: UInt32(UInt8(ascii: " ")))]
        for run in changes {
            let y = run.origin.y
            for (offset, cell) in run.cells.enumerated() where !cell.isContinuation {
                let x = run.origin.x + offset
                // A glyph holds at most five scalars: they go to curses from the stack.
                var chars: InlineArray<5, wchar_t> = .init(repeating: 0)
                var count = 0
                cell.glyph.forEachValue { value in
                    chars[count] = wchar_t(bitPattern: value)
                    count += 1
                }
                let (attributes, pair) = palette.curses(cell.style)
                let width = withUnsafePointer(to: &chars) { pointer in
                    pointer.withMemoryRebound(to: wchar_t.self, capacity: 5) { tc_put_cell(Int32(y), Int32(x), $0, Int32(count), attributes, pair) }
                }
                // Where `DisplayWidth` says 2 columns but the C library 1 (e.g. "❤️"), curses
                // leaves the next column alone and an old glyph could stay there: blank it.
                if width == 1, x + 1 < frame.size.width, frame[x + 1, y].isContinuation {
                    _ = tc_put_cell(Int32(y), Int32(x + 1), blank, 1, attributes, pair)
                }
            }
        }
        let cursor = frame.cursor.flatMap { frame.bounds.contains($0) ? $0 : nil }
        tc_refresh_placing_cursor(Int32(cursor?.y ?? -1), Int32(cursor?.x ?? -1))
    }

    /// Alerts the user to what the message line says: `alert`'s bell or notification.
    public func alert(_ text: String, by alert: TerminalAlert) {
        let bytes = alert.bytes(for: text)
        if !bytes.isEmpty { send(bytes) }
    }

    /// Writes `bytes` to the screen whole, waiting while the terminal is slow to take them.
    private func send(_ bytes: [UInt8]) {
        let fd = tc_screen_fd()
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = write(fd, buffer.baseAddress! + sent, buffer.count - sent)
                if count > 0 {
                    sent += count
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == EAGAIN {
                    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, 1000)
                } else {
                    return  // the terminal is gone: input ends next
                }
            }
        }
    }

    /// After a wake that read nothing: whether the terminal is gone (hung up, or readable yet
    /// empty several times in a row, as at end of file or EIO).
    private func terminalHasEnded() -> Bool {
        switch InputSources.probe(STDIN_FILENO) {
        case .hungUp:
            return true
        case .readableButEmpty:
            emptyWakes += 1
            return emptyWakes >= 3
        case .quiet:
            emptyWakes = 0
            return false
        }
    }

    /// Reads every pending key without waiting.
    private func readKeys() -> [InputEvent] {
        var joiner = EscapeJoiner()
        var repaint = false
        while true {
            var value: wint_t = 0
            let result = tc_get_key(&value)
            if result == ERR { break }
            switch paste.take(result == KEY_CODE_YES ? .code(Int32(value)) : .character(UInt32(value))) {
            case .taken:
                continue
            case .pasted(let text):
                joiner.add(.paste(text))
                continue
            case .cutShort(let text):
                joiner.add(.paste(text))
            case .key:
                break
            }
            let key: Key?
            if result == KEY_CODE_YES {
                let code = Int32(value)
                if code == KEY_MOUSE {
                    for mouse in readMouse() { joiner.add(.mouse(mouse)) }
                    continue
                }
                if code == KEY_RESIZE { continue }  // already reported through the signal pipe
                key = KeyDecoder.function(code)
            } else {
                key = KeyDecoder.character(UInt32(value))
            }
            guard let decoded = key else { continue }
            if decoded == .ctrl("z") {
                joiner.flush()
                tc_suspend()
                // Curses repainted the screen from its own copy, which frames did not go to.
                if writer != nil {
                    writer?.forget()
                    repaint = true
                }
                continue
            }
            joiner.add(decoded)
        }
        var events = joiner.finish()
        if repaint {
            var rows: Int32 = 0, cols: Int32 = 0
            _ = tc_update_size(&rows, &cols)
            size = Size(width: Int(cols), height: Int(rows))
            events.append(.resize(size))
        }
        if !events.isEmpty { emptyWakes = 0 }
        return events
    }

    /// Every mouse event ncurses has queued, oldest first. Reports that arrive together (a press
    /// and the drag after it, on a busy machine) come as one `KEY_MOUSE`, and `getmouse` hands
    /// the queue out newest first: reading one per key would lose the press.
    private func readMouse() -> [MouseEvent] {
        var events: [MouseEvent] = []
        var y: Int32 = 0, x: Int32 = 0, kind: Int32 = 0
        while events.count < 16, tc_read_mouse(&y, &x, &kind) == OK {
            let position = Point(x: Int(x), y: Int(y))
            switch kind {
            case 1: events.append(MouseEvent(.press, at: position))
            case 2: events.append(MouseEvent(.wheelUp, at: position))
            case 3: events.append(MouseEvent(.wheelDown, at: position))
            case 4: events.append(MouseEvent(.release, at: position))
            case 5: events.append(MouseEvent(.drag, at: position))
            default: continue
            }
        }
        return events.reversed()
    }
}
