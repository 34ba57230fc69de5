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

    /// Splits text into chunks, the first at most `first` columns wide, the rest `rest`: at
    /// spaces, as a reader expects (the space a line ends at is dropped); a word wider than a
    /// whole line starts a line of its own and is cut between its characters.
    static func wrap(_ text: String, first: Int, rest: Int) -> [String] {
        var chunks: [String] = []
        var chunk = ""
        var used = 0
        var limit = max(1, first)
        func nextLine() {
            chunks.append(chunk)
            chunk = ""
            used = 0
            limit = max(1, rest)
        }
        // Control characters are drawn as one-column placeholders.
        func width(of character: Character) -> Int { SafeText.placeholder(for: character) == nil ? DisplayWidth.of(character) : 1 }
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            let wordWidth = word.reduce(0) { $0 + width(of: $1) }
            if index > 0 {
                if used > 0, used + 1 + wordWidth > limit {
                    nextLine()
                } else if used + 1 <= limit {
                    chunk.append(" ")
                    used += 1
                }
            }
            for character in word {
                let characterWidth = width(of: character)
                if used + characterWidth > limit, used > 0 { nextLine() }
                chunk.append(character)
                used += characterWidth
            }
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
