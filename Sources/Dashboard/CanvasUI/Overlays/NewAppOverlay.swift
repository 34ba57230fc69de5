import CanvasCore
import CanvasStyle
import PlainText

/// "New micro-app…" (the palette, the `a` catalog): a description typed in, the app written
/// while the model's answer streams by, then the review (its first view, what it asks for, the
/// manifest and the script, scrollable); Enter installs it and adds its pane, Esc turns it down.
///
/// The overlay holds the whole of its state and asks: the host has the generator run and sends
/// its news back, tagged with the box's `run`.
public struct NewAppOverlay: Overlay {
    public enum Stage {
        case describing
        case writing(AppWritingLog)
        /// `scroll` is the first line of the review shown.
        case reviewing(AppReview, scroll: Int)
        case installing(AppReview)
        /// What went wrong, in words, and the first of its lines shown (a trial run's traceback
        /// can be long).
        case failed(String, scroll: Int)
    }

    /// Its entry in the palette and the catalog.
    public nonisolated static let entryTitle = "New micro-app…"

    public private(set) var description: TextField
    public private(set) var stage: Stage = .describing
    /// What would stop writing an app, as found when the box opened (the settings are read
    /// again at Enter, so fixing them needs no restart).
    public private(set) var problem: String?

    /// This box's number: the generator's news for it carries it.
    public let run: Int

    public init(run: Int, description: String = "") {
        self.run = run
        self.description = TextField(description, limit: 500)
    }

    public var badge: String? { " NEW APP " }

    public var capturesText: Bool {
        if case .describing = stage { true } else { false }
    }

    public func hints(_ context: OverlayContext) -> [KeyHint] {
        switch stage {
        case .describing: [KeyHint(keys: "Enter", action: "write it"), KeyHint(keys: "Esc", action: "cancel")]
        case .writing: [KeyHint(keys: "Esc", action: "stop and discard")]
        case .reviewing:
            [KeyHint(keys: "↑↓ PgUp PgDn", action: "scroll"), KeyHint(keys: "Enter", action: "install and add"),
             KeyHint(keys: "Esc", action: "discard")]
        case .installing: [KeyHint(keys: "", action: "installing…")]
        case .failed:
            [KeyHint(keys: "↑↓ PgUp PgDn", action: "scroll"), KeyHint(keys: "Enter", action: "edit and retry"),
             KeyHint(keys: "Esc", action: "close")]
        }
    }

    public mutating func handle(_ key: Key, _ context: OverlayContext) -> [OverlayEffect] {
        switch stage {
        case .describing:
            switch key.code {
            case .escape: return [.close]
            case .enter:
                let text = description.text.trimmingWhitespace()
                guard !text.isEmpty else { return [] }
                stage = .writing(AppWritingLog())
                return [.generateApp(text, run: run)]
            default:
                _ = description.edit(key)
                return []
            }
        case .writing:
            return key == .escape ? [.discardGeneratedApp, .close] : []
        case .reviewing(let review, let scroll):
            switch key.code {
            case .escape: return [.discardGeneratedApp, .close]
            case .enter:
                stage = .installing(review)
                return [.installGeneratedApp(review, run: run)]
            default:
                let count = Self.reviewLines(review, width: Self.width(in: context.area)).count
                if let top = Self.scroll(key, from: scroll, lines: count, context.area) { stage = .reviewing(review, scroll: top) }
                return []
            }
        case .installing:
            return []
        case .failed(let message, let scroll):
            switch key.code {
            case .escape: return [.close]
            case .enter:
                stage = .describing
                return []
            default:
                let count = Self.wrapped(message, width: Self.width(in: context.area)).count
                if let top = Self.scroll(key, from: scroll, lines: count, context.area) { stage = .failed(message, scroll: top) }
                return []
            }
        }
    }

    public mutating func receive(_ message: HostMessage, _ context: OverlayContext) -> [OverlayEffect] {
        guard case .appGeneration(run, let update) = message else { return [] }
        switch (stage, update) {
        case (.installing(let review), .installed(let descriptor)):
            // Its pane only while the box shows: under the quit box, the layout being saved
            // would not have it.
            guard !context.covered else {
                return [.close, .notice(.info("Installed \(review.name): add its pane from the catalog"))]
            }
            return [.close, .addInstalledApp(descriptor)]
        case (.writing(var log), .progress(let progress)):
            log.add(progress)
            stage = .writing(log)
        case (.writing, .ready(let review)):
            stage = .reviewing(review, scroll: 0)
        case (.writing, .failed(let reason)):
            stage = .failed("No app was written: " + reason, scroll: 0)
        case (.installing, .installFailed(let reason)):
            stage = .failed("The app was not installed: " + reason, scroll: 0)
        case (.describing, .checked(let found)):
            problem = found
        default:
            break
        }
        return []
    }

    public func render(into buffer: inout Buffer, _ context: OverlayContext) {
        let width = Self.width(in: context.area)
        let wrap = { (text: String, role: ThemeRole) in Self.wrapped(text, width: width).map { OverlayLine($0, role) } }
        switch stage {
        case .describing:
            // The field first: on a small terminal it is what stays in the box.
            let fix = problem.map { wrap("To fix first: \($0) (read again at Enter)", .error) + [OverlayLine("")] } ?? []
            let lines = Self.field("> ", description, width: width) + [OverlayLine("")] + fix
                + wrap("Describe the micro-app in words. A language model writes it; it runs once, with no permission, "
                       + "before you see it. Enter writes it · Esc cancels", .muted)
            OverlayBox.draw(title: "New micro-app", lines: Self.fixedWidth(lines, width), into: &buffer, context)
        case .writing(let log):
            let room = max(1, OverlayBox.capacity(in: context.area) - 5)
            var lines = Array(wrap(description.text, .muted).prefix(2)) + wrap(log.status, .accent)
            if let problem = log.problem { lines += wrap("Problem: " + problem, .error).prefix(3) }
            lines += [OverlayLine("")] + wrap(log.answer, .overlay).suffix(max(1, room - lines.count + 3))
            lines.append(OverlayLine("Esc stops and discards it", .muted))
            OverlayBox.draw(title: "New micro-app: writing", lines: Self.fixedWidth(lines, width), into: &buffer, context)
        case .reviewing(let review, let scroll):
            let lines = Self.page(of: Self.reviewLines(review, width: width), from: scroll, context.area,
                                  footer: "Enter installs and adds it · Esc discards")
            OverlayBox.draw(title: "New micro-app: \(review.name) \(review.version)", lines: Self.fixedWidth(lines, width), into: &buffer, context)
        case .installing(let review):
            OverlayBox.draw(title: "New micro-app", lines: [OverlayLine("Installing \(review.name)…", .accent)], into: &buffer, context)
        case .failed(let message, let scroll):
            let lines = Self.page(of: wrap(message, .error), from: scroll, context.area,
                                  footer: "Enter edits the description and tries again · Esc closes")
            OverlayBox.draw(title: "New micro-app", lines: Self.fixedWidth(lines, width), into: &buffer, context)
        }
    }

    /// The review, top to bottom: the first view in a frame, what the app asks for, its manifest
    /// and its script.
    static func reviewLines(_ review: AppReview, width: Int) -> [OverlayLine] {
        // Its rows down to the last one drawn on: the script gets the room below.
        let preview = Array(review.preview.reversed().drop { $0.allSatisfy(\.isWhitespace) }.reversed())
        let previewWidth = preview.map(DisplayWidth.of).max() ?? 0
        var lines = wrapped("\(review.name) (\(review.id)): its first view, run with no permission", width: width).map { OverlayLine($0, .heading) }
        lines.append(OverlayLine("┌" + String(repeating: "─", count: previewWidth) + "┐", .muted))
        lines += preview.map { line in
            OverlayLine("│" + line + String(repeating: " ", count: max(0, previewWidth - DisplayWidth.of(line))) + "│")
        }
        lines.append(OverlayLine("└" + String(repeating: "─", count: previewWidth) + "┘", .muted))
        lines.append(OverlayLine("It asks for:", .heading))
        lines += review.permissions.flatMap { wrapped("  " + $0, width: width) }.map { OverlayLine($0, .warning) }
        lines.append(OverlayLine("── app.yaml ──", .heading))
        lines += code(review.manifest, width: width)
        lines.append(OverlayLine("── \(review.scriptName) ──", .heading))
        lines += code(review.script, width: width)
        return lines
    }

    /// Source text, tabs expanded, long lines wrapped keeping their indentation (`TextWrap.code`).
    private static func code(_ text: String, width: Int) -> [OverlayLine] {
        text.replacing("\t", with: "    ").split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { line in line.isEmpty ? [""] : TextWrap.code(String(line), width: width) }
            .map { OverlayLine($0) }
    }

    /// `text` wrapped to `width`, its own line breaks kept.
    private static func wrapped(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            line.isEmpty ? [""] : TextWrap.lines(String(line), width: width)
        }
    }

    /// Pads the first line so the box keeps one width while its text changes.
    private static func fixedWidth(_ lines: [OverlayLine], _ width: Int) -> [OverlayLine] {
        guard let first = lines.first else { return lines }
        return [OverlayLine(first.text + String(repeating: " ", count: max(0, width - DisplayWidth.of(first.text))), first.role,
                            cursor: first.cursor)]
            + lines.dropFirst()
    }

    /// A text field after its label, wrapped as `wrapped` wraps it, the cursor on the line and
    /// column its insertion point lands on: the last line starting at or before it (a break
    /// drops the spaces, or the newline, between two lines, so each line is found in the text).
    static func field(_ label: String, _ field: TextField, width: Int, role: ThemeRole = .accent) -> [OverlayLine] {
        let text = label + field.text
        let lines = wrapped(text, width: width)
        let insertion = label.count + field.cursor
        var rest = Substring(text)
        var offset = 0
        var cursor: (line: Int, column: Int)?
        for (index, line) in lines.enumerated() {
            if index > 0, rest.first == "\n" {
                rest = rest.dropFirst()
                offset += 1
            }
            while !rest.hasPrefix(line), rest.first == " " {
                rest = rest.dropFirst()
                offset += 1
            }
            if offset <= insertion {
                cursor = (index, DisplayWidth.of(String(line.prefix(insertion - offset))))
            }
            rest = rest.dropFirst(line.count)
            offset += line.count
        }
        return lines.enumerated().map { index, line in
            OverlayLine(line, role, cursor: index == cursor?.line ? cursor?.column : nil)
        }
    }

    /// The text width inside the box: 76 columns (a script's usual 72 and some), or what a
    /// small canvas has.
    static func width(in area: Rect) -> Int { max(10, min(area.width - 6, 76)) }

    /// Lines of scrolled text shown at once: the box less the footer.
    static func pageSize(in area: Rect) -> Int { max(1, OverlayBox.capacity(in: area) - 1) }

    /// The first line shown after a scrolling `key`, for text of `lines` lines; nil for other keys.
    static func scroll(_ key: Key, from top: Int, lines: Int, _ area: Rect) -> Int? {
        let page = pageSize(in: area)
        return OverlayScroll.top(after: key, from: top, page: page, last: max(0, lines - page))
    }

    /// The page of `content` from line `top`, then a footer that says where it is when it scrolls.
    static func page(of content: [OverlayLine], from top: Int, _ area: Rect, footer: String) -> [OverlayLine] {
        let page = pageSize(in: area)
        let first = min(top, max(0, content.count - page))
        let shown = Array(content[first..<min(content.count, first + page)])
        let position = content.count > page ? "Lines \(first + 1)–\(first + shown.count) of \(content.count) · " : ""
        return shown + [OverlayLine(position + footer, .muted)]
    }
}

/// What the overlay shows while the app is written: where it is, the last problem, and the
/// end of the model's answer (bounded: the answer itself may be up to 256 KiB).
public struct AppWritingLog: Equatable, Sendable {
    public private(set) var status = "Starting…"
    public private(set) var problem: String?
    public private(set) var answer = ""

    /// The most of the answer kept for display.
    static let answerLimit = 4096

    public init() {}

    public mutating func add(_ progress: AppGenerationProgress) {
        switch progress {
        case .asking:
            answer = ""
        case .text(let piece):
            answer += piece
            // By bytes, not characters: one character can hold thousands of combining marks.
            if answer.utf8.count > Self.answerLimit {
                answer = String(decoding: answer.utf8.suffix(Self.answerLimit / 2), as: UTF8.self)
            }
            return
        case .problem(let text):
            problem = text
            return
        case .checking, .running:
            break
        }
        status = progress.status ?? status
    }
}
