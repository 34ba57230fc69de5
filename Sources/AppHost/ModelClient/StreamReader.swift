import FoundationEssentials
import HTTPClient
import PlainText

/// Turns an answer's body into its pieces of text: server-sent events of completion chunks ending
/// in `[DONE]`, or (from a server that ignores `stream`) one JSON completion.
struct StreamReader {
    private let isEventStream: Bool
    private let maxBytes: Int
    private var parser: ServerSentEventParser
    private var body: [UInt8] = []
    private var done = false
    /// A completion arrived (possibly of empty text).
    private(set) var sawAnswer = false

    init(isEventStream: Bool, maxBytes: Int) {
        self.isEventStream = isEventStream
        self.maxBytes = maxBytes
        parser = ServerSentEventParser(maxEventBytes: maxBytes)
    }

    mutating func feed(_ bytes: [UInt8]) throws(ModelError) -> [String] {
        guard isEventStream else {
            guard body.count + bytes.count <= maxBytes else { throw .malformed("the answer is longer than \(maxBytes) bytes") }
            body += bytes
            return []
        }
        let outputs: [ServerSentEventParser.Output]
        do throws(ServerSentEventParser.TooLarge) {
            outputs = try parser.feed(bytes)
        } catch {
            throw .malformed(error.description)
        }
        var pieces: [String] = []
        for case .event(let event) in outputs where !done {
            if event.data.trimmingWhitespace() == "[DONE]" {
                done = true
                continue
            }
            pieces.append(try Self.text(of: Array(event.data.utf8)))
            sawAnswer = true
        }
        return pieces.filter { !$0.isEmpty }
    }

    /// What the end of the body completes: the whole JSON answer, when it was not a stream.
    mutating func finish() throws(ModelError) -> [String] {
        guard !isEventStream else { return [] }
        let text = try Self.text(of: body)
        sawAnswer = true
        return text.isEmpty ? [] : [text]
    }

    private static func text(of json: [UInt8]) throws(ModelError) -> String {
        guard let chunk = try? JSONDecoder().decode(Completions.Chunk.self, from: Data(json)) else {
            throw .malformed("a part is not JSON of a completion: \(String(decoding: json.prefix(80), as: UTF8.self))")
        }
        if let failure = chunk.error { throw .refused(status: 200, message: failure.text ?? "an error without a message") }
        return chunk.text
    }
}
