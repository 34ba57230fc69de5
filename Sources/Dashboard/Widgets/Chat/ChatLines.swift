import CalendarTime
import CanvasCore
import CanvasUI
import FoundationEssentials
import ServerAPI

/// How a message looks in the scrollback: `HH:MM author: text`, wrapped to the pane's width by
/// display width (wide characters and emoji take two columns and never straddle the edge). A
/// line feed in the text starts a new line; every other control character is drawn by the buffer
/// as a visible placeholder.
enum ChatLines {
    struct Line: Equatable {
        var prefix: String
        var text: String
        var pending: Bool
    }

    static func lines(of message: ChatMessage, width: Int, clock: CanvasClock, pending: Bool) -> [Line] {
        guard width > 0 else { return [] }
        let prefix = "\(time(of: message.sentAt, clock: clock)) \(message.author): "
        var lines: [Line] = []
        var first = true
        for paragraph in message.text.split(separator: "\n", omittingEmptySubsequences: false) {
            let lead = first ? prefix : ""
            for (index, chunk) in wrap(String(paragraph), first: width - DisplayWidth.of(lead), rest: width).enumerated() {
                lines.append(Line(prefix: index == 0 ? lead : "", text: chunk, pending: pending))
            }
            first = false
        }
        return lines
    }

    /// Splits text into chunks: the first at most `first` columns wide, the rest `rest`.
    static func wrap(_ text: String, first: Int, rest: Int) -> [String] {
        var chunks: [String] = []
        var chunk = ""
        var used = 0
        var limit = max(1, first)
        for character in text {
            // Control characters are drawn as one-column placeholders.
            let width = SafeText.placeholder(for: character) == nil ? DisplayWidth.of(character) : 1
            if used + width > limit, !chunk.isEmpty || limit < width {
                chunks.append(chunk)
                chunk = ""
                used = 0
                limit = max(1, rest)
            }
            chunk.append(character)
            used += width
        }
        chunks.append(chunk)
        return chunks
    }

    /// `HH:MM` of an ISO 8601 UTC date-time in the clock's time zone, or `--:--`.
    static func time(of iso: String, clock: CanvasClock) -> String {
        let parts = iso.split(whereSeparator: { $0 == "T" || $0 == ":" || $0 == "." || $0 == "Z" })
        guard parts.count >= 3, let day = CalendarDate(iso: String(parts[0])), let hour = Int(parts[1]), let minute = Int(parts[2]) else {
            return "--:--"
        }
        let seconds = Double(day.daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60)
        return String(clock.timeOfDay(Date(timeIntervalSince1970: seconds)).prefix(5))
    }
}
